//! The server's integration tests, in one binary so the workspace links it once:
//! the API over real HTTP on loopback, each test with a temporary database.

mod bodies;
mod common;
mod connections;
mod damaged;
mod deadline;
mod expiry;
mod http;
mod jobslots;
mod jobstore;
mod layers;
mod learning;
mod limits;
mod live;
mod review;
mod stale;
mod thinkers;
mod three_requests;
mod weight;

//! The one integration-test binary of the `tabula` command: the CLI as a user
//! types it, and the server killed mid-stream. Each module drives the real binary.

mod abuse;
mod cli;
mod crash;
mod declared;
mod docs;
mod hostile;
mod input;
mod limits;
mod names;
mod newcomer;
mod one_server;
mod screens;
mod seeds;
mod solve_json;
mod tables;
mod terminal;
mod width;

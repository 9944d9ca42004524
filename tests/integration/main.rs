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
mod wording;

/// Writes `input` to a child's standard input and closes it. A program may end
/// without reading all of it (it refused its arguments, or quit early), so a
/// broken pipe is not a failure; any other error is.
pub(crate) fn feed(stdin: Option<std::process::ChildStdin>, input: &[u8]) {
    use std::io::Write;
    let mut stdin = stdin.expect("the child's standard input is piped");
    match stdin.write_all(input) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("input written: {e}"),
        _ => {}
    }
}

//! Where the play screen's lines come from: a line editor with history on a
//! terminal (arrow keys, Ctrl-R), plain lines from a pipe or a file.
//!
//! Whatever arrives, a line is at most [`MAX_LINE_BYTES`] long and is text: a
//! longer line, or one that is not UTF-8 (a Latin-1 `é`, a byte 0xFF), is
//! refused in words and the game goes on. Memory stays bounded whatever the
//! input: a pipe is read in pieces of the cap, and the rest of an overlong line
//! is skipped without being kept; a line that never ends (`< /dev/zero`) ends
//! the program in words once [`MAX_SKIPPED_BYTES`] of it have gone by.

// Unsafe code, each block with its SAFETY comment: tcflush, to drop what was typed after an unreadable byte.
#![allow(unsafe_code)]

use anyhow::{bail, Result};
use std::io::{BufRead, IsTerminal, Write};
use thiserror::Error;

/// The longest line read, in bytes: a move, a command or a file name is far shorter.
pub const MAX_LINE_BYTES: usize = 4096;

/// How much of an overlong line is skipped looking for its end before the input
/// is taken for something no one typed.
pub const MAX_SKIPPED_BYTES: usize = 1 << 20;

/// Unreadable lines in a row after which the input is taken for something no
/// one types (a binary file): the program ends instead of refusing line after line.
pub const MAX_REFUSED_IN_A_ROW: usize = 20;

/// Why a line was not taken.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum Refused {
    /// The line is not UTF-8 text (a byte of another encoding, or binary data).
    #[error("that line is not text this program can read (it holds a byte that is not UTF-8, such as a Latin-1 letter); type it again in plain letters")]
    NotText,
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error(
        "that line is longer than {MAX_LINE_BYTES} characters; no move or command is that long"
    )]
    TooLong,
}

/// Why reading stopped for good.
#[derive(Debug, Error)]
pub enum InputError {
    /// A line went on past [`MAX_SKIPPED_BYTES`] without ending.
    #[error("the input has a line of more than {} MiB that does not end: it cannot be moves, so the game stops here", MAX_SKIPPED_BYTES >> 20)]
    Endless,
    /// Too many unreadable lines in a row.
    #[error("{MAX_REFUSED_IN_A_ROW} lines in a row were not moves or commands that could be read: the game stops here")]
    Unreadable,
    /// The system failed to read.
    #[error("cannot read input: {0}")]
    Io(#[from] std::io::Error),
}

/// What one read gives.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text (without its end).
    Text(String),
    /// A line refused, and why.
    Refused(Refused),
    /// Ctrl-D, or the end of a file or pipe.
    End,
    /// Ctrl-C on a terminal.
    Interrupted,
}

/// Reads one line of at most `max` bytes from `r`, without its end (`\n` or
/// `\r\n`). A longer line is skipped to its end, holding no more than the
/// reader's buffer, and refused; one longer than `skip` bytes is an error.
pub fn read_capped(r: &mut impl BufRead, max: usize, skip: usize) -> Result<Line, InputError> {
    let mut buf = Vec::new();
    let n = std::io::Read::take(&mut *r, max as u64 + 1).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > max {
        skip_line(r, skip)?;
        return Ok(Line::Refused(Refused::TooLong));
    }
    Ok(match String::from_utf8(buf) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::Refused(Refused::NotText),
    })
}

/// Consumes the rest of a line, up to and including its end; an error after
/// `limit` bytes without one.
fn skip_line(r: &mut impl BufRead, limit: usize) -> Result<(), InputError> {
    let mut skipped = 0usize;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(at) = buf.iter().position(|&b| b == b'\n') {
            r.consume(at + 1);
            return Ok(());
        }
        let n = buf.len();
        r.consume(n);
        skipped += n;
        if skipped > limit {
            return Err(InputError::Endless);
        }
    }
}

/// Where moves come from.
pub enum Input {
    Editor(Box<rustyline::Editor<LineCap, rustyline::history::DefaultHistory>>),
    Lines(std::io::StdinLock<'static>),
}

impl Input {
    pub fn new() -> Input {
        if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            if let Ok(ed) = editor() {
                return Input::Editor(Box::new(ed));
            }
        }
        Input::Lines(std::io::stdin().lock())
    }

    /// One line after showing `prompt`.
    pub fn read(&mut self, out: &mut impl Write, prompt: &str) -> Result<Line, InputError> {
        match self {
            Input::Editor(ed) => {
                out.flush()?;
                use rustyline::error::ReadlineError;
                match ed.readline(prompt) {
                    Ok(line) if line.len() > MAX_LINE_BYTES => Ok(Line::Refused(Refused::TooLong)),
                    Ok(line) => {
                        if !line.trim().is_empty() {
                            let _ = ed.add_history_entry(line.as_str());
                        }
                        Ok(Line::Text(line))
                    }
                    Err(ReadlineError::Interrupted) => Ok(Line::Interrupted),
                    Err(ReadlineError::Eof) => Ok(Line::End),
                    // The editor reads the terminal as UTF-8 and stops at the
                    // first byte that is not.
                    Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                        discard_typed_ahead();
                        Ok(Line::Refused(Refused::NotText))
                    }
                    Err(ReadlineError::Io(e)) => Err(e.into()),
                    Err(e) => Err(std::io::Error::other(e.to_string()).into()),
                }
            }
            Input::Lines(stdin) => {
                write!(out, "{prompt}")?;
                out.flush()?;
                read_capped(stdin, MAX_LINE_BYTES, MAX_SKIPPED_BYTES)
            }
        }
    }
}

/// Reads lines until one is text (or the input ends), saying why each refused
/// one was refused: never [`Line::Refused`]. Too many refusals in a row end the program.
pub fn read_text(input: &mut Input, out: &mut impl Write, prompt: &str) -> Result<Line> {
    let mut refused = 0usize;
    loop {
        match input.read(out, prompt)? {
            Line::Refused(why) => {
                refused += 1;
                if refused >= MAX_REFUSED_IN_A_ROW {
                    bail!(InputError::Unreadable);
                }
                writeln!(out, "\nTry again: {why}.")?;
            }
            line => return Ok(line),
        }
    }
}

/// The line editor: emacs keys and history, and no line longer than the cap
/// (see [`LineCap`]); pastes arrive as typed keys, so the cap holds for them too.
fn editor() -> rustyline::Result<rustyline::Editor<LineCap, rustyline::history::DefaultHistory>> {
    let config = rustyline::Config::builder().bracketed_paste(false).build();
    let mut ed = rustyline::Editor::with_config(config)?;
    ed.set_helper(Some(LineCap));
    ed.bind_sequence(
        rustyline::Event::Any,
        rustyline::EventHandler::Conditional(Box::new(LineCap)),
    );
    Ok(ed)
}

/// Stops a line on the terminal from growing past one character over the cap:
/// further characters are not taken, so memory stays bounded however much is
/// typed or pasted, and the line, being over the cap, is refused when entered.
pub struct LineCap;

impl rustyline::ConditionalEventHandler for LineCap {
    fn handle(
        &self,
        evt: &rustyline::Event,
        _n: rustyline::RepeatCount,
        _positive: bool,
        ctx: &rustyline::EventContext,
    ) -> Option<rustyline::Cmd> {
        let typed = matches!(
            evt.get(0),
            Some(rustyline::KeyEvent(rustyline::KeyCode::Char(_), m))
                if *m == rustyline::Modifiers::NONE || *m == rustyline::Modifiers::SHIFT
        );
        (typed && ctx.line().len() > MAX_LINE_BYTES).then_some(rustyline::Cmd::Noop)
    }
}

impl rustyline::completion::Completer for LineCap {
    type Candidate = String;
}
impl rustyline::hint::Hinter for LineCap {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for LineCap {}
impl rustyline::validate::Validator for LineCap {}
impl rustyline::Helper for LineCap {}

/// Drops what was typed after a byte the editor could not read (the rest of
/// that line), so that it does not arrive as the next line.
fn discard_typed_ahead() {
    // SAFETY: tcflush only discards the terminal's pending input; standard
    // input is a terminal here (the editor is used only then).
    unsafe {
        libc::tcflush(libc::STDIN_FILENO, libc::TCIFLUSH);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines(bytes: &[u8], max: usize, skip: usize) -> Vec<Result<Line, String>> {
        let mut r = std::io::BufReader::with_capacity(16, Cursor::new(bytes.to_vec()));
        let mut out = Vec::new();
        loop {
            match read_capped(&mut r, max, skip) {
                Ok(Line::End) => return out,
                Ok(l) => out.push(Ok(l)),
                Err(e) => {
                    out.push(Err(e.to_string()));
                    return out;
                }
            }
        }
    }

    fn text(t: &str) -> Result<Line, String> {
        Ok(Line::Text(t.into()))
    }

    #[test]
    fn a_byte_that_is_not_utf8_refuses_its_line_only() {
        let got = lines(b"5\n\xe9\n1\r\nlast", 10, 100);
        assert_eq!(
            got,
            vec![
                text("5"),
                Ok(Line::Refused(Refused::NotText)),
                text("1"),
                text("last")
            ]
        );
    }

    #[test]
    fn an_overlong_line_is_refused_and_the_next_one_read() {
        let mut input = b"ok\n".to_vec();
        input.extend([b'x'; 50]);
        input.extend(b"\nnext\n");
        let got = lines(&input, 10, 100);
        assert_eq!(
            got,
            vec![
                text("ok"),
                Ok(Line::Refused(Refused::TooLong)),
                text("next")
            ]
        );
        // A line of exactly the cap is taken.
        let got = lines(&[b'y'; 10], 10, 100);
        assert_eq!(got, vec![text(&"y".repeat(10))]);
    }

    #[test]
    fn a_line_that_never_ends_is_an_error_in_words() {
        let got = lines(&[0u8; 1000], 10, 100);
        let last = got.last().unwrap().as_ref().unwrap_err();
        assert!(last.contains("does not end"), "{last}");
        // Skipping stops at the end of the input too.
        let got = lines(&[b'z'; 50], 10, 100);
        assert_eq!(got, vec![Ok(Line::Refused(Refused::TooLong))]);
    }
}

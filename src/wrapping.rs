//! A writer that keeps every line within the terminal's width: the play
//! screen's messages, logs and lists are wrapped at spaces with a hanging
//! indent ([`crate::report::wrap`], textwrap), so no game needs to know how wide
//! the terminal is. Widths are columns on the terminal, not characters: a wide
//! character takes two, a combining accent none.

use std::io::{self, Write};

/// Wraps each line written through it to `width` columns. Lines holding escape
/// codes (a coloured board) pass unchanged: a board fits by itself. A partial
/// line (a prompt) goes out as it is when flushed.
pub struct Wrapping<W: Write> {
    inner: W,
    width: usize,
    line: Vec<u8>,
    /// Columns already used on the terminal's line by a prompt flushed without
    /// its end (in a pipe the answer is not echoed, so the next output follows it).
    used: usize,
}

impl<W: Write> Wrapping<W> {
    /// Wraps `inner` at `width` columns.
    pub fn new(inner: W, width: usize) -> Self {
        Wrapping {
            inner,
            width,
            line: Vec::new(),
            used: 0,
        }
    }

    fn emit_line(&mut self) -> io::Result<()> {
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        let used = std::mem::take(&mut self.used);
        let columns = crate::report::columns(&text);
        if text.contains('\u{1b}') || used + columns <= self.width {
            return writeln!(self.inner, "{text}");
        }
        if used > 0 {
            // After a prompt, a line that does not fit beside it starts below it.
            writeln!(self.inner)?;
            if columns <= self.width {
                return writeln!(self.inner, "{text}");
            }
        }
        let lead = &text[..text.len() - text.trim_start().len()];
        let rest = format!("{lead}  ");
        let wrapped = crate::report::wrap(text.trim_start(), self.width, lead, &rest);
        self.inner.write_all(wrapped.as_bytes())
    }
}

impl<W: Write> Write for Wrapping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                self.emit_line()?;
            } else {
                self.line.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            let partial = std::mem::take(&mut self.line);
            self.used += crate::report::columns(&String::from_utf8_lossy(&partial));
            self.inner.write_all(&partial)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Wrapping<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_and_prompts_pass() {
        let mut out = Vec::new();
        {
            let mut w = Wrapping::new(&mut out, 40);
            let long = format!("  {}\n", "word ".repeat(30));
            w.write_all(long.as_bytes()).unwrap();
            w.write_all(b"short\n> ").unwrap();
            w.flush().unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().all(|l| l.chars().count() <= 40), "{text}");
        assert!(text.contains("\n    word"), "{text}");
        assert!(text.ends_with("short\n> "), "{text}");
        // After a prompt, a line too long to follow it starts on the next line.
        let mut out = Vec::new();
        {
            let mut w = Wrapping::new(&mut out, 40);
            w.write_all(b"Your move: ").unwrap();
            w.flush().unwrap();
            w.write_all(format!("{}\n", "word ".repeat(12)).as_bytes())
                .unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().all(|l| l.chars().count() <= 40), "{text}");
        assert!(text.starts_with("Your move: \nword"), "{text}");
    }

    #[test]
    fn wide_characters_count_as_the_columns_they_take() {
        // Twenty-five wide characters (two columns each) and a space: 52
        // columns, though only 26 characters; at 40 columns it wraps.
        let line = format!("{} {}\n", "囲".repeat(20), "碁".repeat(5));
        let mut out = Vec::new();
        {
            let mut w = Wrapping::new(&mut out, 40);
            w.write_all(line.as_bytes()).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(
            text.lines().all(|l| crate::report::columns(l) <= 40),
            "{text}"
        );
        // A combining accent takes no column: 40 columns of "é" written as
        // "e" and U+0301 stay on one line.
        let line = format!("{}\n", "e\u{301}".repeat(40));
        let mut out = Vec::new();
        {
            let mut w = Wrapping::new(&mut out, 40);
            w.write_all(line.as_bytes()).unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), line);
    }
}

//! Markdown wrapped for the terminal at spaces only. termimad lays a page out
//! and styles it, but its own wrapping also breaks where the style changes: inside
//! "(`2`)" it left "(2" at the end of a line and ")" at the start of the next,
//! and a list item's bold lead-in ("**Board size**: 3 to 6 ...") stood alone on
//! its line. Lines are wrapped here instead, between words, each word kept whole
//! with its styles; only a word wider than the line is left to termimad.

use termimad::minimad::Compound;
use termimad::wrap::{composite_kind_widths, hard_wrap_composite};
use termimad::{CompositeKind, FmtComposite, FmtLine, FmtText, ListItemsIndentationMode, MadSkin};

/// `md` laid out by `skin` in `width` columns, every line wrapped at spaces.
pub fn render(skin: &MadSkin, md: &str, width: usize) -> String {
    let mut text = FmtText::from(skin, md, None);
    let lines = std::mem::take(&mut text.lines);
    text.lines = lines
        .into_iter()
        .flat_map(|line| match line {
            FmtLine::Normal(fc) => wrap(fc, width, skin)
                .into_iter()
                .map(FmtLine::Normal)
                .collect(),
            other => vec![other],
        })
        .collect();
    text.set_rendering_width(width);
    text.to_string()
}

/// A piece of a line: a run of characters of one compound, blank or not.
struct Piece<'s> {
    compound: Compound<'s>,
    blank: bool,
    width: usize,
}

/// The pieces of a composite: each compound cut where blanks start and end
/// (spaces inside inline code are part of its word, as termimad keeps them).
fn pieces<'s>(fc: &FmtComposite<'s>) -> Vec<Piece<'s>> {
    let mut out = Vec::new();
    for compound in &fc.compounds {
        let src = compound.src;
        let mut start = 0;
        let mut blank_run = None;
        for (i, c) in src.char_indices() {
            let blank = c.is_whitespace() && !compound.code;
            match blank_run {
                Some(b) if b != blank => {
                    out.push(piece(compound, start, i, b));
                    start = i;
                    blank_run = Some(blank);
                }
                None => blank_run = Some(blank),
                _ => {}
            }
        }
        if let Some(b) = blank_run {
            out.push(piece(compound, start, src.len(), b));
        }
    }
    out
}

fn piece<'s>(compound: &Compound<'s>, start: usize, end: usize, blank: bool) -> Piece<'s> {
    let compound = compound.sub(start, end);
    Piece {
        width: textwrap::core::display_width(compound.src),
        compound,
        blank,
    }
}

/// The line that follows a wrapped one: a list item goes on indented as the
/// skin indents it (as termimad's own wrapping does).
fn follow_up<'s>(fc: &FmtComposite<'s>, skin: &MadSkin) -> FmtComposite<'s> {
    let kind = match fc.kind {
        CompositeKind::ListItem(depth) => CompositeKind::ListItemFollowUp(depth),
        kind => kind,
    };
    let visible_length = match kind {
        CompositeKind::ListItemFollowUp(depth)
            if skin.list_items_indentation_mode == ListItemsIndentationMode::Block =>
        {
            2 + depth as usize
        }
        CompositeKind::Quote => 2,
        _ => 0,
    };
    FmtComposite {
        kind,
        compounds: Vec::new(),
        visible_length,
        spacing: fc.spacing,
    }
}

/// A word of a composite for textwrap's line filling: its pieces, with the
/// blanks before it (kept only at the start of the composite) and the width of
/// the blanks after it (dropped where a line breaks).
struct Word<'s> {
    gap: Vec<Piece<'s>>,
    pieces: Vec<Piece<'s>>,
    width: usize,
    blanks_after: usize,
}

impl std::fmt::Debug for Word<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Word({} + {})", self.width, self.blanks_after)
    }
}

impl textwrap::core::Fragment for Word<'_> {
    fn width(&self) -> f64 {
        self.width as f64
    }

    fn whitespace_width(&self) -> f64 {
        self.blanks_after as f64
    }

    fn penalty_width(&self) -> f64 {
        0.0
    }
}

/// One composite as lines of at most `width` columns, broken between words.
fn wrap<'s>(fc: FmtComposite<'s>, width: usize, skin: &MadSkin) -> Vec<FmtComposite<'s>> {
    let (left, right) = skin.line_style(fc.kind).margins_in(Some(width));
    let room = width.saturating_sub(left + right);
    if fc.visible_length <= room || room < 3 {
        return vec![fc];
    }
    let (first, _) = composite_kind_widths(fc.kind, skin);
    // Words: runs of pieces between blanks, each with the blanks before it.
    let mut words: Vec<Word<'s>> = Vec::new();
    let mut gap = Vec::new();
    for p in pieces(&fc) {
        if p.blank {
            gap.push(p);
        } else {
            match words.last_mut() {
                Some(word) if gap.is_empty() => {
                    word.width += p.width;
                    word.pieces.push(p);
                }
                _ => {
                    if let Some(before) = words.last_mut() {
                        before.blanks_after = gap.iter().map(|g| g.width).sum();
                    }
                    words.push(Word {
                        gap: std::mem::take(&mut gap),
                        width: p.width,
                        pieces: vec![p],
                        blanks_after: 0,
                    });
                }
            }
        }
    }
    let widest = words.iter().map(|w| w.width).max().unwrap_or(0);
    if widest + first > room {
        // A word wider than the line: termimad cuts it.
        return hard_wrap_composite(&fc, room, skin).unwrap_or_else(|_| vec![fc]);
    }
    let lead: usize = words
        .first()
        .map_or(0, |w| w.gap.iter().map(|g| g.width).sum());
    let follow = follow_up(&fc, skin);
    let line_widths = [
        room.saturating_sub(first + lead) as f64,
        room.saturating_sub(follow.visible_length) as f64,
    ];
    let counts: Vec<usize> = textwrap::wrap_algorithms::wrap_first_fit(&words, &line_widths)
        .iter()
        .map(|line| line.len())
        .collect();
    let mut words = words.into_iter();
    let mut lines = Vec::new();
    let mut line = FmtComposite {
        kind: fc.kind,
        compounds: Vec::new(),
        visible_length: first,
        spacing: fc.spacing,
    };
    for (n, count) in counts.into_iter().enumerate() {
        if n > 0 {
            let next = follow_up(&line, skin);
            lines.push(std::mem::replace(&mut line, next));
        }
        for (j, word) in words.by_ref().take(count).enumerate() {
            if j > 0 || n == 0 {
                for p in word.gap {
                    line.add_compound(p.compound);
                }
            }
            for p in word.pieces {
                line.add_compound(p.compound);
            }
        }
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(md: &str, width: usize) -> Vec<String> {
        let mut skin = MadSkin::no_style();
        skin.list_items_indentation_mode = ListItemsIndentationMode::Block;
        render(&skin, md, width)
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    #[test]
    fn inline_code_stays_with_its_brackets() {
        let md =
            "since a piece always moves into the one empty point, the start alone (`2`) is enough.";
        for width in 20..90 {
            for line in plain(md, width) {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
                assert!(
                    !line.starts_with(')') && !line.ends_with('('),
                    "{width}: {line:?}"
                );
            }
        }
    }

    #[test]
    fn a_bold_lead_in_keeps_its_words_on_its_line() {
        let md = "* **Board size**: 3 to 6 columns and 3 to 6 rows; each side fills its home row with pawns.";
        let lines = plain(md, 80);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains("Board size: 3 to 6"), "{lines:?}");
        assert!(lines[1].starts_with("  pawns"), "{lines:?}");
    }

    #[test]
    fn a_word_wider_than_the_line_is_cut_to_fit() {
        let lines = plain(&"x".repeat(50), 20);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(lines.concat(), "x".repeat(50));
    }
}

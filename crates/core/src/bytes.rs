//! Sizes in bytes as people type and read them: one unit system everywhere.
//!
//! Tabula writes sizes in binary units (KiB, MiB, GiB, TiB: powers of 1024) and
//! names them so, because "GB" means 1000³ to a disk maker and 1024³ to a memory
//! chip: a player who reads "1 GiB" and types `--max-memory 1G` gets the same
//! amount. [`parse_bytes`] reads both spellings (`512M`, `512MB`, `512MiB`) as
//! powers of 1024, the way memory is sold and counted.

/// Bytes in plain words, in binary units: `512 bytes`, `5.6 MiB`, `545 MiB`,
/// `1 GiB`, `50.4 GiB`. Three significant digits at most (one decimal below 100,
/// none from 100, none for a whole number); `u64::MAX` reads "no limit".
/// `humansize` writes the number and its binary unit; the rounding to three
/// digits is done first, on the bytes, so that 1023.96 KiB reads "1 MiB" and
/// not "1024 KiB".
pub fn format_bytes(bytes: u64) -> String {
    if bytes == u64::MAX {
        return "no limit".to_string();
    }
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut x = bytes as f64;
    let mut unit = 1.0;
    while x >= 1024.0 {
        x /= 1024.0;
        unit *= 1024.0;
    }
    let (places, step) = if x >= 100.0 { (0, 1.0) } else { (1, 0.1) };
    let shown = ((x / step).round() * step * unit).min(u64::MAX as f64) as u64;
    humansize::format_size(shown, humansize::BINARY.decimal_places(places))
}

/// Reads a memory size typed by a user: `1073741824`, `512M`, `512MB`, `512MiB`, `1G`,
/// `1.5GiB`, `64k` (powers of 1024 whichever way the unit is spelt: `parse-size`
/// in its binary unit system; case does not matter).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "'{}' is not a memory size: write e.g. 512M, 2G or 1073741824",
            crate::error::clip(text)
        )
    };
    // Sizes are a number and a unit, not digits grouped by spaces or written
    // with an exponent (which parse-size would also read).
    let plain = t
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .trim_end();
    if t.is_empty() || !plain.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(bad());
    }
    let config = parse_size::Config::new().with_binary();
    match config.parse_size(t) {
        Ok(0) => Err(format!(
            "'{}' is not a usable memory size",
            crate::error::clip(text)
        )),
        Ok(bytes) => Ok(bytes),
        Err(parse_size::Error::PosOverflow) => Err(format!(
            "'{}' is not a usable memory size",
            crate::error::clip(text)
        )),
        Err(_) => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(format_bytes(0), "0 bytes");
        assert_eq!(format_bytes(1023), "1023 bytes");
        assert_eq!(format_bytes(1024), "1 KiB");
        assert_eq!(format_bytes(1536), "1.5 KiB");
        assert_eq!(format_bytes(5_853_184), "5.6 MiB");
        assert_eq!(format_bytes(100_000_000), "95.4 MiB");
        assert_eq!(format_bytes(571_473_920), "545 MiB");
        assert_eq!(format_bytes(1 << 30), "1 GiB");
        assert_eq!(format_bytes(3 << 29), "1.5 GiB");
        assert_eq!(format_bytes(54_100_000_000), "50.4 GiB");
        assert_eq!(format_bytes(1 << 40), "1 TiB");
        assert_eq!(format_bytes(u64::MAX - 1), "16 EiB");
        assert_eq!(format_bytes(u64::MAX), "no limit");
        // Just under a unit rounds up to it, never "1024 KiB".
        assert_eq!(format_bytes((1 << 20) - 1), "1 MiB");
        assert_eq!(format_bytes((1 << 30) - 1), "1 GiB");
        // 1000-based names never appear.
        for shift in 0..63 {
            let text = format_bytes(1u64 << shift | 12345);
            for decimal in ["KB", "MB", "GB", "TB", "PB"] {
                assert!(!text.ends_with(decimal), "{text}");
            }
        }
    }

    #[test]
    fn what_is_written_reads_back_close() {
        for bytes in [1u64 << 20, 3 << 29, 5 << 30, 100 << 20] {
            let text = format_bytes(bytes).replace(' ', "");
            assert_eq!(parse_bytes(&text), Ok(bytes), "{text}");
        }
    }

    #[test]
    fn parses_sizes() {
        assert_eq!(parse_bytes("1073741824"), Ok(1 << 30));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert_eq!(parse_bytes("1.5g"), Ok(3 << 29));
        assert_eq!(parse_bytes("64kb"), Ok(64 << 10));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("5 parsecs").is_err());
        assert!(parse_bytes("").is_err());
        assert!(parse_bytes("1e400").is_err());
        assert!(parse_bytes("1e3").is_err());
        assert!(parse_bytes("99999999999G").is_err());
        assert_eq!(parse_bytes(" 2 GiB "), Ok(2 << 30));
    }
}

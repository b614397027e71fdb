//! Card files: the CSV every variant's card data is written in, read one way
//! (docs/contract.md, *Card files*).
//!
//! Every card table of every variant comes from a CSV file under
//! `python/splendor/data/<variant>/`, and this module is the only reader of
//! them: `build.rs` includes it to turn the base and Duel files into static
//! tables, and Marvel reads its card sets with it at run time (a user may
//! correct them). It reads CSV with the `csv` crate; the reference engine
//! reads the same files with Python's `csv` module and the same settings and
//! checks (`splendor/reference/cardfile.py`), so both engines read any file
//! identically. Errors are messages naming the file, the row (1-based,
//! counting the header as row 1) and the column; the caller decides how to
//! report them (a build error, or `CardDataError`).
//!
//! This file needs nothing but `std` and `csv`, because the build script
//! compiles it too.

/// The longest field, in characters: Python's `csv` refuses longer ones
/// (`csv.field_size_limit()`), so this reader does too.
pub const FIELD_LIMIT: usize = 131_072;

/// One data row: its 1-based number counting the header as row 1 (empty
/// lines are not counted), and its fields as read (padding kept).
pub struct Row {
    pub number: usize,
    pub fields: Vec<String>,
}

/// `"NAME must be between LO and HI, got V"`, the one way the engines write a
/// range (as `crate::game::range_message`, which the build script cannot see).
fn range_message(name: &str, lo: u32, hi: u32, got: &str) -> String {
    format!("{name} must be between {lo} and {hi}, got {got}")
}

/// The records of `text`, each a list of fields as written (padding kept): a
/// leading byte-order mark is ignored; records end at `\n`, `\r\n` or `\r`;
/// empty lines are skipped; a field that starts with `"` is quoted (`""`
/// stands for a quote, and it may span lines, and text after the closing
/// quote is kept); a `"` anywhere else is an ordinary character.
pub fn records(text: &str) -> Result<Vec<Vec<String>>, String> {
    // The crate ignores one leading byte-order mark itself.
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for record in reader.records() {
        // The input is a `&str` and fields split at ASCII bytes only, so the
        // crate has nothing to refuse; its error is passed on all the same.
        let record = record.map_err(|e| format!("row {}: {e}", out.len() + 1))?;
        out.push(record.iter().map(str::to_string).collect());
    }
    Ok(out)
}

/// The data rows of `text` (read as [`records`]) after its exact `header`:
/// every data row must have as many fields as the header, and no field more
/// than [`FIELD_LIMIT`] characters.
pub fn rows(text: &str, file: &str, header: &[&str]) -> Result<Vec<Row>, String> {
    let records = records(text).map_err(|e| format!("{file} {e}"))?;
    // Python's `csv` refuses a long field while reading, before any other check.
    if let Some(i) = records
        .iter()
        .position(|r| r.iter().any(|f| f.chars().count() > FIELD_LIMIT))
    {
        return Err(format!(
            "{file} row {}: a field is longer than {FIELD_LIMIT} characters",
            i + 1
        ));
    }
    let head_ok = records.first().is_some_and(|head| {
        head.len() == header.len() && head.iter().zip(header).all(|(a, b)| trim(a) == *b)
    });
    if !head_ok {
        return Err(header_message(file, header));
    }
    let mut out = Vec::new();
    for (i, fields) in records.into_iter().enumerate().skip(1) {
        let number = i + 1;
        if fields.len() != header.len() {
            return Err(format!(
                "{file} row {number}: expected {} columns, got {}",
                header.len(),
                fields.len()
            ));
        }
        out.push(Row { number, fields });
    }
    Ok(out)
}

fn header_message(file: &str, header: &[&str]) -> String {
    format!("{file} row 1: header must be {}", header.join(","))
}

/// Field padding that is ignored: ASCII spaces and tabs only (both engines
/// strip exactly these, so no Unicode table can make them differ).
pub fn trim(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

/// A whole number between `lo` and `hi`: ASCII digits only (no sign), leading
/// zeros allowed, padding ignored.
pub fn int(file: &str, row: usize, col: &str, text: &str, lo: u32, hi: u32) -> Result<u8, String> {
    let s = trim(text);
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{file} row {row} column {col}: {text:?} is not an integer"
        ));
    }
    let digits = s.trim_start_matches('0');
    let v: u32 = if digits.len() > 9 {
        u32::MAX
    } else {
        digits.parse().unwrap_or(0)
    };
    if v < lo || v > hi {
        return Err(range_message(
            &format!("{file} row {row} column {col}"),
            lo,
            hi,
            s,
        ));
    }
    Ok(v as u8)
}

/// The index of `text` among `options`, ignoring ASCII case and padding.
pub fn choice(text: &str, options: &[&str]) -> Option<usize> {
    let s = trim(text);
    options.iter().position(|o| s.eq_ignore_ascii_case(o))
}

/// A non-empty name without control characters, padding removed.
pub fn name(file: &str, row: usize, text: &str) -> Result<String, String> {
    let s = trim(text);
    if s.is_empty() {
        return Err(format!("{file} row {row} column name: empty name"));
    }
    if s.chars().any(char::is_control) {
        return Err(format!(
            "{file} row {row} column name: {s:?} holds a control character"
        ));
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields of every data row (header `a`).
    fn read(text: &str) -> Result<Vec<Vec<String>>, String> {
        Ok(rows(text, "f.csv", &["a"])?
            .into_iter()
            .map(|r| r.fields)
            .collect())
    }

    fn flexible(text: &str) -> Vec<Vec<String>> {
        records(text).unwrap()
    }

    /// The readings `tests/test_card_files.py` checks the reference reader
    /// against (docs/contract.md, *Card files*).
    #[test]
    fn quotes_line_ends_and_empty_lines() {
        let v = |xs: &[&[&str]]| -> Vec<Vec<String>> {
            xs.iter()
                .map(|r| r.iter().map(|s| s.to_string()).collect())
                .collect()
        };
        assert_eq!(flexible("1,\"a, b\",c\n"), v(&[&["1", "a, b", "c"]]));
        assert_eq!(flexible("\"say \"\"hi\"\"\",x"), v(&[&["say \"hi\"", "x"]]));
        assert_eq!(flexible("\"a\"b,c\n"), v(&[&["ab", "c"]]));
        assert_eq!(flexible("a\"b,c\n"), v(&[&["a\"b", "c"]]));
        assert_eq!(flexible(" \"a\",b\n"), v(&[&[" \"a\"", "b"]]));
        assert_eq!(flexible("\"a,b\n"), v(&[&["a,b\n"]]));
        assert_eq!(flexible("\"a\nb\",c\n"), v(&[&["a\nb", "c"]]));
        assert_eq!(flexible("x\ry\n"), v(&[&["x"], &["y"]]));
        assert_eq!(flexible("\n\n a \n"), v(&[&[" a "]]));
        assert_eq!(flexible("\u{feff}a"), v(&[&["a"]]));
        assert_eq!(flexible("\u{feff}\u{feff}a"), v(&[&["\u{feff}a"]]));
        assert_eq!(flexible("\n\u{feff}a"), v(&[&["\u{feff}a"]]));
        assert_eq!(flexible("a,\u{feff}b"), v(&[&["a", "\u{feff}b"]]));
        assert_eq!(flexible("a\r\n\r\nb\r\n"), v(&[&["a"], &["b"]]));
        assert_eq!(flexible("\"\"\n"), v(&[&[""]]));
        assert_eq!(flexible("a,\n"), v(&[&["a", ""]]));
        assert_eq!(flexible("\"abc\"   ,d\n"), v(&[&["abc   ", "d"]]));
        assert_eq!(
            flexible("a\u{85}b\u{2028}c\n"),
            v(&[&["a\u{85}b\u{2028}c"]])
        );
        assert_eq!(flexible("a\0b,c\n"), v(&[&["a\0b", "c"]]));
    }

    #[test]
    fn rows_count_the_header_and_skip_empty_lines() {
        let r = rows("\u{feff} a \n\n1\r\n2", "f.csv", &["a"]).unwrap();
        assert_eq!(
            r.iter()
                .map(|r| (r.number, r.fields[0].as_str()))
                .collect::<Vec<_>>(),
            [(2, "1"), (3, "2")]
        );
        assert_eq!(read("b\n1").unwrap_err(), "f.csv row 1: header must be a");
        assert_eq!(read("").unwrap_err(), "f.csv row 1: header must be a");
        assert_eq!(
            read("a\n1,2").unwrap_err(),
            "f.csv row 2: expected 1 columns, got 2"
        );
        let long = format!("a\n{}", "x".repeat(FIELD_LIMIT));
        assert_eq!(read(&long).unwrap()[0][0].len(), FIELD_LIMIT);
        let longer = format!("a\n{}", "x".repeat(FIELD_LIMIT + 1));
        assert!(read(&longer).unwrap_err().contains("longer than 131072"));
    }

    #[test]
    fn fields() {
        assert_eq!(int("f", 2, "c", " 07\t", 0, 9), Ok(7));
        assert_eq!(
            int("f", 2, "c", "10", 0, 9).unwrap_err(),
            "f row 2 column c must be between 0 and 9, got 10"
        );
        assert!(int("f", 2, "c", "+1", 0, 9)
            .unwrap_err()
            .contains("not an integer"));
        assert_eq!(choice(" Purple ", &["blue", "purple"]), Some(1));
        assert_eq!(choice("purp\u{130}e", &["purple"]), None);
        assert!(name("f", 2, "a\u{1}")
            .unwrap_err()
            .contains("control character"));
        assert_eq!(name("f", 2, " Nick Fury\t").unwrap(), "Nick Fury");
    }
}

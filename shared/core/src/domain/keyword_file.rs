//! A keyword list uploaded as a file: plain text (one phrase a line) or CSV, as Search
//! Console, Google Ads, Semrush and Ahrefs export it. Errors name the line they are on.

use super::keyword_list::{KeywordList, KeywordPhrase};
use crate::validation::FieldError;

/// Headers naming the phrase column in common exports, compared case-insensitively.
const PHRASE_HEADERS: &[&str] = &[
    "keyword",
    "keywords",
    "keyphrase",
    "phrase",
    "query",
    "queries",
    "top queries",
    "search term",
    "search terms",
    "search query",
    "term",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeywordFileFormat {
    /// One phrase per line; the whole line is the phrase.
    Text,
    /// Comma-separated (or semicolon or tab, as the first line shows): the column a known
    /// header names, else the first column.
    Csv,
}

impl KeywordFileFormat {
    /// From a `Content-Type` essence; `None` for anything else.
    pub fn from_media_type(essence: &str) -> Option<Self> {
        match essence {
            "text/plain" => Some(Self::Text),
            "text/csv" | "application/csv" | "text/tab-separated-values" => Some(Self::Csv),
            _ => None,
        }
    }
}

/// Blank lines are skipped (exports end with one); every other line is a phrase, reported
/// as `line N` when it cannot be used.
pub fn parse_keyword_file(
    text: &str,
    format: KeywordFileFormat,
) -> Result<KeywordList, Vec<FieldError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        KeywordFileFormat::Text => KeywordList::collect(
            text.lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty())
                .map(|(index, line)| (line_name(index + 1), KeywordPhrase::parse(line))),
            "file",
        ),
        KeywordFileFormat::Csv => parse_csv(text),
    }
}

fn line_name(line: usize) -> String {
    format!("line {line}")
}

fn delimiter(first_line: &str) -> u8 {
    [b'\t', b';', b',']
        .into_iter()
        .max_by_key(|d| first_line.bytes().filter(|b| b == d).count())
        .filter(|d| first_line.bytes().any(|b| b == *d))
        .unwrap_or(b',')
}

fn parse_csv(text: &str) -> Result<KeywordList, Vec<FieldError>> {
    let first_line = text.lines().next().unwrap_or_default();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter(first_line))
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        match record {
            Ok(record) => {
                let line = record.position().map_or(0, |p| p.line() as usize);
                let cells: Vec<String> = record.iter().map(str::to_string).collect();
                rows.push((line, cells));
            }
            Err(err) => {
                let line = err.position().map_or(0, |p| p.line() as usize);
                return Err(vec![FieldError::new(
                    line_name(line),
                    "is not valid CSV (an unclosed quote?)",
                )]);
            }
        }
    }
    let header_column = rows.first().and_then(|(_, cells)| {
        cells
            .iter()
            .position(|cell| PHRASE_HEADERS.contains(&cell.trim().to_lowercase().as_str()))
    });
    let (skip, column) = match header_column {
        Some(column) => (1, column),
        None => (0, 0),
    };
    KeywordList::collect(
        rows.into_iter()
            .skip(skip)
            .filter(|(_, cells)| cells.iter().any(|cell| !cell.trim().is_empty()))
            .map(|(line, cells)| {
                let phrase = match cells.get(column) {
                    Some(cell) => KeywordPhrase::parse(cell),
                    None => Err("has no value in the keyword column".to_string()),
                };
                (line_name(line), phrase)
            }),
        "file",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrases(list: &KeywordList) -> Vec<&str> {
        list.phrases().iter().map(KeywordPhrase::as_str).collect()
    }

    #[test]
    fn text_files_are_one_phrase_a_line() {
        let list = parse_keyword_file(
            "\u{feff}Cold Brew\r\n\r\nespresso beans\ncold brew\n",
            KeywordFileFormat::Text,
        )
        .unwrap();
        assert_eq!(phrases(&list), ["cold brew", "espresso beans"]);
        assert_eq!(list.duplicates(), 1);
        let errors = parse_keyword_file("ok\n\nbad!\n", KeywordFileFormat::Text).unwrap_err();
        assert_eq!(errors[0].field, "line 3");
    }

    #[test]
    fn csv_exports_use_their_keyword_column() {
        let search_console =
            "Top queries,Clicks,Impressions\ncold brew,12,300\n\"pour over, kettle\",1,2\n";
        let errors = parse_keyword_file(search_console, KeywordFileFormat::Csv).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "line 3");
        let semrush = "Volume;Keyword;CPC\n880;Espresso Beans;1.2\n90;iced latte;0.5\n";
        let list = parse_keyword_file(semrush, KeywordFileFormat::Csv).unwrap();
        assert_eq!(phrases(&list), ["espresso beans", "iced latte"]);
        let headerless = "cold brew,1900\ndrip coffee,300\n";
        let list = parse_keyword_file(headerless, KeywordFileFormat::Csv).unwrap();
        assert_eq!(phrases(&list), ["cold brew", "drip coffee"]);
        assert!(parse_keyword_file("keyword\n", KeywordFileFormat::Csv).is_err());
    }
}

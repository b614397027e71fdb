//! The `cards=` / `locations=` keywords of `new_game("marvel", ...)`: a path
//! (str without a newline, or os.PathLike) or the CSV text itself.

use super::{action, errors};
use crate::variants::marvel::data::{MarvelData, BUNDLED_CARDS, BUNDLED_LOCATIONS};
use crate::variants::marvel::MarvelState;
use pyo3::prelude::*;
use pyo3::types::PyString;

fn card_data_error(msg: String) -> PyErr {
    errors::CardDataError::new_err(msg)
}

fn text_of(arg: Option<&Bound<'_, PyAny>>, bundled: &str) -> PyResult<String> {
    let Some(arg) = arg.filter(|a| !a.is_none()) else {
        return Ok(bundled.to_owned());
    };
    if arg.cast::<PyString>().is_ok() {
        let s = super::args::text(arg, "a card file", card_data_error)?;
        if s.contains('\n') {
            return Ok(s.to_owned());
        }
    }
    let path: std::path::PathBuf = arg.extract().map_err(|_| {
        errors::CardDataError::new_err(format!(
            "a card file must be a path or CSV text, not {}",
            arg.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    std::fs::read_to_string(&path).map_err(|e| {
        errors::CardDataError::new_err(format!("cannot read card file {}: {e}", path.display()))
    })
}

/// The interned card set for `cards` / `locations` (None = bundled file).
pub(crate) fn load(
    variant: &str,
    cards: Option<&Bound<'_, PyAny>>,
    locations: Option<&Bound<'_, PyAny>>,
) -> PyResult<&'static MarvelData> {
    if variant != "marvel" {
        return Err(errors::config(format!(
            "cards= and locations= apply to the marvel variant only, not {variant:?}"
        )));
    }
    let c = text_of(cards, BUNDLED_CARDS)?;
    let l = text_of(locations, BUNDLED_LOCATIONS)?;
    action::ok(MarvelData::load(&c, &l))
}

/// `MarvelState.from_json(text, *, cards=None, locations=None)`: without
/// files, the card set is the bundled one or any set loaded earlier in this
/// process, found by the checksum the JSON records; with files (a missing one
/// means the bundled file), exactly that set, whose checksum must match.
pub(crate) fn from_json(
    text: &Bound<'_, PyAny>,
    cards: Option<&Bound<'_, PyAny>>,
    locations: Option<&Bound<'_, PyAny>>,
) -> PyResult<MarvelState> {
    let given = |a: Option<&Bound<'_, PyAny>>| a.is_some_and(|a| !a.is_none());
    if !given(cards) && !given(locations) {
        return super::state::from_json::<MarvelState>(text);
    }
    let text = super::state::json_text(text)?;
    let data = load("marvel", cards, locations)?;
    action::ok(MarvelState::from_json_with(text, data))
}

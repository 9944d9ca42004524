//! The work a cluster shares out, for `tabula_games.cluster`: a game's opening
//! book in pieces ([`PyBookWork`]) and a puzzle's policy search in pieces
//! ([`PyPolicySearch`]), reached by the game's name in the registry, so this
//! crate still knows no game. Each piece runs with the interpreter released,
//! so a worker process's other threads (Ray's own) go on meanwhile.

use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tabula_core::{OpeningBookWork, PolicyRun, PolicySearch, WorkError};

/// Longest text read as a position or a file of boards.
const MAX_TEXT_BYTES: usize = 16 << 20;

/// A refusal in the engine's words: `ValueError` for bad input,
/// `TimeoutError` when the time given ran out.
fn work_error(e: WorkError) -> PyErr {
    match e {
        WorkError::BadInput(_) => PyValueError::new_err(e.to_string()),
        WorkError::OutOfTime => PyTimeoutError::new_err(e.to_string()),
    }
}

fn check_text(what: &str, text: &str) -> PyResult<()> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(PyValueError::new_err(format!(
            "the {what} is too long ({} bytes; at most {MAX_TEXT_BYTES})",
            text.len()
        )));
    }
    Ok(())
}

fn game(name: &str, variant: &str) -> PyResult<std::sync::Arc<dyn tabula_engine::DynGame>> {
    check_text("game's name", name)?;
    check_text("variant", variant)?;
    tabula_engine::build(name, variant).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A game's opening book in pieces: `BookWork(game, variant="")`.
#[pyclass(module = "tabula_games._native", name = "BookWork", frozen)]
pub struct PyBookWork {
    work: Box<dyn OpeningBookWork>,
}

#[pymethods]
impl PyBookWork {
    #[new]
    #[pyo3(signature = (name, variant = ""))]
    fn new(name: &str, variant: &str) -> PyResult<Self> {
        let game = game(name, variant)?;
        let work = game.opening_book_work().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} makes no opening book in this variant",
                game.info().title
            ))
        })?;
        Ok(PyBookWork { work })
    }

    /// The deepest book the board can have (plies).
    fn max_plies(&self) -> u32 {
        self.work.max_plies()
    }

    /// `[(key, position)]`: every position after exactly `plies` moves, images once.
    fn positions(&self, py: Python<'_>, plies: u32) -> PyResult<Vec<(u64, String)>> {
        py.detach(|| self.work.positions(plies)).map_err(work_error)
    }

    /// `[(key, score)]` of `positions`, reading deeper scores from the book file `deeper`.
    #[pyo3(signature = (positions, deeper = None, seconds = None))]
    fn solve(
        &self,
        py: Python<'_>,
        positions: Vec<String>,
        deeper: Option<&[u8]>,
        seconds: Option<f64>,
    ) -> PyResult<Vec<(u64, i32)>> {
        for p in &positions {
            check_text("position", p)?;
        }
        let deeper = deeper.unwrap_or_default();
        py.detach(|| self.work.solve(&positions, deeper, seconds))
            .map_err(work_error)
    }

    /// The book file of every position up to `depth` plies, from `[(key, score)]`.
    fn assemble<'py>(
        &self,
        py: Python<'py>,
        depth: u32,
        entries: Vec<(u64, i32)>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py
            .detach(|| self.work.assemble(depth, &entries))
            .map_err(work_error)?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// A puzzle's nested rollout policy search in pieces: `PolicySearch(game, variant="")`.
#[pyclass(module = "tabula_games._native", name = "PolicySearch", frozen)]
pub struct PyPolicySearch {
    work: Box<dyn PolicySearch>,
}

#[pymethods]
impl PyPolicySearch {
    #[new]
    #[pyo3(signature = (name, variant = ""))]
    fn new(name: &str, variant: &str) -> PyResult<Self> {
        let game = game(name, variant)?;
        let work = game.policy_search().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} has no policy search in this variant",
                game.info().title
            ))
        })?;
        Ok(PyPolicySearch { work })
    }

    /// The positions of the puzzle's published test set.
    fn test_set(&self) -> Vec<String> {
        self.work.test_set()
    }

    /// Positions read from a file's text.
    fn read_positions(&self, py: Python<'_>, text: &str) -> PyResult<Vec<String>> {
        check_text("file", text)?;
        py.detach(|| self.work.read_positions(text))
            .map_err(work_error)
    }

    /// `(score, moves, playouts)` of a search from `position` under `policy`.
    #[pyo3(signature = (position, policy, level, iterations, seed, seconds))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        position: &str,
        policy: &[u8],
        level: u32,
        iterations: u32,
        seed: u64,
        seconds: f64,
    ) -> PyResult<(i64, Vec<String>, u64)> {
        check_text("position", position)?;
        let run = PolicyRun {
            level,
            iterations,
            seed,
            seconds,
        };
        let found = py
            .detach(|| self.work.search(position, policy, &run))
            .map_err(work_error)?;
        Ok((found.score, found.moves, found.playouts))
    }

    /// `policy` moved once towards the line `moves` from `position`.
    fn adapt<'py>(
        &self,
        py: Python<'py>,
        position: &str,
        policy: &[u8],
        moves: Vec<String>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        check_text("position", position)?;
        let bytes = py
            .detach(|| self.work.adapt(position, policy, &moves))
            .map_err(work_error)?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// Adds the classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBookWork>()?;
    m.add_class::<PyPolicySearch>()?;
    Ok(())
}

//! Every figure is written as a PNG and an SVG with the font embedded.

use crate::common;

use std::path::Path;

use ttr_opt::analysis::{frequency, sensitivity, AnalysisOptions};
use ttr_opt::output::plot;
use ttr_opt::solve::sweep::sweep;

/// A real PNG, or an SVG whose text is drawn as glyph outlines.
fn check(paths: &[std::path::PathBuf]) {
    assert_eq!(paths.len(), 2);
    for path in paths {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        match path.extension().and_then(|e| e.to_str()) {
            Some("png") => {
                assert!(
                    bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
                    "{}",
                    path.display()
                );
                assert!(bytes.len() > 5_000, "{} is nearly empty", path.display());
            }
            Some("svg") => {
                let text = String::from_utf8(bytes).unwrap();
                assert!(text.starts_with("<svg"), "{}", path.display());
                assert!(
                    !text.contains("<text"),
                    "{}: text left to the viewer's fonts",
                    path.display()
                );
                assert!(
                    text.matches("<path d=\"M").count() > 10,
                    "{}: no glyphs",
                    path.display()
                );
            }
            other => panic!("unexpected file kind {other:?}"),
        }
    }
}

#[test]
fn every_figure_is_written_non_empty() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| -> std::path::PathBuf { Path::new(&dir).join(name) };
    let b = common::ring();
    let entries = sweep(&b, 1, 12, 2, &|_| {}).unwrap();
    let points: Vec<(u32, u32, u32)> = entries
        .iter()
        .map(|e| {
            let p = &e.outcome.plan;
            (e.cars, p.ticket_points, p.route_points)
        })
        .collect();
    check(&plot::score_curve("ring", &points, &at("curve")).unwrap());
    let freq = frequency(&b, entries.iter().map(|e| &e.outcome.plan));
    check(&plot::frequency("ring", &freq, 10, &at("frequency")).unwrap());
    let last = &entries[entries.len() - 1];
    check(&plot::map(&b, &last.outcome.plan, last.cars, &at("map")).unwrap());
    let s = sensitivity(&b, 8, &AnalysisOptions::threads(2)).unwrap();
    check(&plot::sensitivity("ring", &s.tickets, &s.routes, &at("sensitivity")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_path_is_an_error_naming_it() {
    let b = common::ring();
    let entries = sweep(&b, 3, 3, 1, &|_| {}).unwrap();
    let stem = Path::new("/nonexistent-dir/ttr-opt/map");
    let err = plot::map(&b, &entries[0].outcome.plan, 3, stem).unwrap_err();
    assert!(
        err.to_string().contains("/nonexistent-dir/ttr-opt/map."),
        "{err}"
    );
}

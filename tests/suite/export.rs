//! `ttr-opt export`: the model files another solver would read, read back
//! by HiGHS, give the optimum.

use crate::common;
use common::{ttr_opt, ttr_opt_ok};

use ttr_opt::model::mip::solve_file;
use ttr_opt::model::Instance;
use ttr_opt::output::export::{export, Format, ModelKind};
use ttr_opt::solve::Method;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ttr-opt-export-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_forest_model_with_its_cuts_reproduces_285() {
    let dir = scratch("forest");
    for ext in ["mps", "lp"] {
        let path = dir.join(format!("usa-45.{ext}"));
        let out = ttr_opt_ok(&[
            "export",
            "--cars",
            "45",
            "--model",
            "forest",
            "--out",
            path.to_str().unwrap(),
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (v["optimum"].as_u64(), v["proven"].as_bool()),
            (Some(285), Some(true))
        );
        assert!(v["cuts"].as_u64().unwrap() > 0);
        // The file alone, solved by HiGHS as a MIP.
        let objective = solve_file(&path).unwrap();
        assert!((objective - 285.0).abs() < 1e-6, "{ext}: {objective}");
        // Route columns carry their names.
        if ext == "lp" {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains("x1_Atlanta_Miami"), "{}", &text[..200]);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_papers_model_at_a_small_budget_reproduces_its_optimum() {
    let board = common::usa();
    let dir = scratch("paper");
    for cars in [4, 6] {
        let path = dir.join(format!("usa-{cars}.lp"));
        let inst = Instance::new(&board, cars);
        let written = export(&inst, ModelKind::Paper, Format::Lp, &path).unwrap();
        assert_eq!(written.optimum, None);
        let objective = solve_file(&path).unwrap();
        let optimum = common::optimum(&board, cars, Method::Forest);
        assert!(
            (objective - optimum as f64).abs() < 1e-6,
            "{cars} cars: {objective}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exported_models_of_small_boards_match_brute_force() {
    let boards = [common::ring(), common::line_of_pairs()];
    let dir = scratch("small");
    for (i, board) in boards.iter().enumerate() {
        for cars in [3, 6, 9, 12] {
            let inst = Instance::new(board, cars);
            if inst.routes.is_empty() || inst.takes_everything() {
                continue;
            }
            let expected = common::brute_force(board, cars) as f64;
            for kind in [ModelKind::Paper, ModelKind::Forest] {
                let path = dir.join(format!("b{i}-{cars}-{kind:?}.mps"));
                export(&inst, kind, Format::Mps, &path).unwrap();
                let objective = solve_file(&path).unwrap();
                assert!(
                    (objective - expected).abs() < 1e-6,
                    "board {i}, {cars} cars, {kind:?}: {objective} against {expected}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_export_requests_are_clear() {
    let dir = scratch("bad");
    let txt = dir.join("model.txt");
    // No format: the name says none.
    let out = ttr_opt(&["export", "--model", "paper", "--out", txt.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format"));
    // A format against the extension.
    let mps = dir.join("model.mps");
    let out = ttr_opt(&[
        "export",
        "--model",
        "paper",
        "--format",
        "lp",
        "--out",
        mps.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!mps.exists());
    // At or above the cars of every route there is nothing to model.
    let out = ttr_opt(&[
        "export",
        "--model",
        "forest",
        "--cars",
        "10000",
        "--out",
        mps.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs no model"));
    // A folder that does not exist: an I/O message, no stray files.
    let missing = dir.join("no/such/folder/m.lp");
    let out = ttr_opt(&[
        "export",
        "--model",
        "paper",
        "--cars",
        "3",
        "--out",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

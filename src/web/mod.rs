//! `ttr-opt serve`: a local web page for designers, a thin face over the
//! library like the CLI and the Python package.
//!
//! - [`jobs`]: the one worker that runs the heavy computations (the base
//!   board's balance analyses, a what-if variant's optima), one at a time,
//!   a superseded one cancelled;
//! - [`suggest`]: the *Suggest* button's tuning of the board, on a thread
//!   of its own;
//! - [`api`]: the HTTP routes (the JSON API documented in docs/designers.md) and
//!   the page itself, served from the binary (`assets/`), with the board
//!   drawn as [`crate::output::board_view`] says (shared with the online
//!   game's page).
//!
//! The server binds to 127.0.0.1 unless told otherwise, and stops cleanly on
//! Ctrl-C.

pub mod api;
pub mod jobs;
pub mod suggest;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::board::Board;

/// Runs the server on `addr` until Ctrl-C ([`crate::solve::limits::interrupted`]),
/// calling `ready` with the address it listens on (the port chosen when
/// `addr` asks for port 0).
pub fn serve(
    board: Board,
    board_text: String,
    addr: SocketAddr,
    threads: usize,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let jobs = Arc::new(jobs::Jobs::start(board, board_text, threads));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        let app = api::router(jobs.clone());
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                // The CLI's Ctrl-C handler marks the run interrupted; the
                // computation in progress stops at its next check.
                while !crate::solve::limits::interrupted() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
            .await?;
        jobs.stop();
        Ok(())
    })
}

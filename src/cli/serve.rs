//! `serve`: the designers' web page (the server is [`crate::web`]).

use crate::solve::limits::Limits;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{load_board_with_text, threads};

#[derive(clap::Args)]
pub(super) struct ServeArgs {
    /// Board file (default: the built-in USA board); another can be opened
    /// from the page.
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8045)]
    port: u16,
    /// Address to listen on. The default, 127.0.0.1, lets only this
    /// machine in; 0.0.0.0 opens the page to the network.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Worker threads for the computations, 1 to 64.
    #[arg(long, default_value_t = 2, value_parser = threads)]
    threads: usize,
}

pub(super) fn run_serve(args: &ServeArgs, _limits: &Limits) -> Result<ExitCode> {
    let (board, text) = load_board_with_text(args.board.as_ref())?;
    let addr = SocketAddr::new(args.host, args.port);
    crate::web::serve(board, text, addr, args.threads, |at| {
        // Printed and flushed at once: scripts wait for this line.
        println!(
            "serving {} on http://{at}/ (Ctrl-C stops)",
            args.board
                .as_ref()
                .map_or("the USA board".into(), |p| p.display().to_string())
        );
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
    })
    .with_context(|| format!("cannot serve on {addr}"))?;
    // Ctrl-C is how a server ends: a clean stop, not an interrupted run.
    crate::solve::limits::clear_interrupt();
    eprintln!("stopped");
    Ok(ExitCode::SUCCESS)
}

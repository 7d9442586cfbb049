/// The allocator: under load the online game (`ttr-opt play`) builds and
/// drops many small JSON values a move, and glibc's malloc and free were
/// about a quarter of its CPU at 1,000 games (`output/bench/play.md`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    ttr_opt::cli::main()
}

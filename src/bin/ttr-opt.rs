fn main() -> std::process::ExitCode {
    ttr_opt::cli::main()
}

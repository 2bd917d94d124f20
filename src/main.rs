//! Desktop entry point: parses the command line, then runs the app.
fn main() {
    montello::main();
}

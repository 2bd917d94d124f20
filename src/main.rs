fn main() {
    montello::main();
}

//! Turns the bundled card CSVs (python/splendor/data/, the single source of
//! truth for both engines) into static Rust tables in `OUT_DIR`.
//! Each variant's generator lives in `build/<variant>.rs`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=python/splendor/data");
}

//! Turns the bundled card CSVs (python/splendor/data/, the single source of
//! truth for both engines) into static Rust tables in `OUT_DIR`, reading them
//! with the one card-file reader the engine also uses at run time
//! (`src/cardfile.rs`). Each variant's generator lives in `build/<variant>.rs`.
//! It also records what the build was made with (`build/info.rs`).

#[path = "build/base.rs"]
mod base;
// Marvel's checks (`name`) are used at run time only.
#[allow(dead_code)]
#[path = "src/cardfile.rs"]
mod cardfile;
#[path = "build/duel.rs"]
mod duel;
#[path = "build/info.rs"]
mod info;
#[path = "build/tables.rs"]
mod tables;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=src/cardfile.rs");
    println!("cargo:rerun-if-changed=python/splendor/data");
    let root = std::path::PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    base::generate(&root, &out);
    duel::generate(&root, &out);
    info::emit();
}

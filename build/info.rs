//! What the build was made with, passed to the crate as `SPLENDOR_BUILD_*`
//! environment variables (read with `env!`; `splendor --version` prints them
//! through `splendor._core.build_info()`).

use std::process::Command;

/// Emits `cargo:rustc-env` lines: the compiler's version, the target triple,
/// the profile, the enabled cargo features and the target features the code
/// is compiled for (the kernels add AVX2 + FMA at run time where the CPU has
/// them). Cargo reruns the build script when the compiler, target or
/// features change, so these stay true to the binary.
pub fn emit() {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let rustc = if var("RUSTC").is_empty() {
        "rustc".to_owned()
    } else {
        var("RUSTC")
    };
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_else(|| "rustc (unknown version)".to_owned());
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(k, _)| k.strip_prefix("CARGO_FEATURE_").map(str::to_owned))
        .map(|f| f.to_lowercase().replace('_', "-"))
        .collect();
    features.sort();
    println!("cargo:rustc-env=SPLENDOR_BUILD_RUSTC={version}");
    println!("cargo:rustc-env=SPLENDOR_BUILD_TARGET={}", var("TARGET"));
    println!("cargo:rustc-env=SPLENDOR_BUILD_PROFILE={}", var("PROFILE"));
    println!(
        "cargo:rustc-env=SPLENDOR_BUILD_FEATURES={}",
        features.join(",")
    );
    println!(
        "cargo:rustc-env=SPLENDOR_BUILD_TARGET_FEATURES={}",
        var("CARGO_CFG_TARGET_FEATURE")
    );
}

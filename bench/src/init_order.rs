//! `courier-bench init-order <binary> <script>` (run by `make init-order`): writes the
//! linker script that lays the sender's start-up code out together
//! (`functions/sender/init-order.ld`, applied by the sender's build script).
//!
//! Why: the code a cold start runs (about 700 functions, 0.7 MB) lay scattered over
//! about 85 of the binary's 64 KiB read-ahead windows, and each window the CPU
//! first touches is a page fault (about 2 us on the bench machine, likely more on a
//! Lambda whose image pages arrive on demand). Placed together, the same code spans
//! about a dozen windows.
//!
//! How: the binary (unstripped, so that functions have names) runs under valgrind's
//! callgrind with the Lambda environment, polling a Runtime API address where
//! nothing listens, so it exits right after its first poll: what it executed is
//! exactly its init. Each function of the binary that ran becomes one input-section
//! pattern of an output section placed before `.text`. Names are Rust's v0 symbols
//! (`.cargo/config.toml`) with the crate hashes left open (`Cs*_`), so the script
//! matches builds for any target and profile; C functions (mimalloc) keep their
//! plain names. A pattern that matches nothing costs nothing, so a stale script only
//! loses some of the effect; `make bench` shows the init time it gives.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::process::{Command, Stdio};

/// Runs `binary` under callgrind as a Lambda cold start and writes the script to `out`.
pub fn run(args: &[String]) -> Result<(), String> {
    let [binary, out] = args else {
        return Err("usage: init-order <unstripped sender binary> <linker script to write>".into());
    };
    let binary = std::fs::canonicalize(binary).map_err(|e| format!("{binary}: {e}"))?;
    let dir = std::env::temp_dir().join(format!("courier-init-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let profile = dir.join("callgrind.out");
    // A port that was free a moment ago: the first poll is refused and the function
    // exits (lambda_runtime ends on a failed poll).
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?;
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg("--demangle=no")
        .arg(format!("--callgrind-out-file={}", profile.display()))
        .arg(&binary)
        .env_clear()
        .envs(courier_aws::runtime_stub::lambda_env(&closed.to_string()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    // The function exits with an error (its poll failed); callgrind still writes.
    let text = std::fs::read_to_string(&profile);
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.map_err(|e| format!("valgrind (is it installed?): {e}"))?;
    let text = text.map_err(|e| format!("callgrind output ({status}): {e}"))?;
    let object = binary.display().to_string();
    let functions = executed_functions(&text, &object);
    if functions.len() < 100 {
        return Err(format!(
            "only {} functions of {object} ran: is it unstripped?",
            functions.len()
        ));
    }
    let script = linker_script(&functions);
    std::fs::write(out, script).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("init-order: {} functions ran; wrote {out}", functions.len());
    Ok(())
}

/// The functions of `object` that callgrind saw run, in the order the profile first
/// names them. Callgrind compresses names: `fn=(7) name` defines id 7 (in the
/// current object, or the one a preceding `cob=` names for a callee), `fn=(7)`
/// refers back to it.
pub fn executed_functions(profile: &str, object: &str) -> Vec<String> {
    let mut objects: HashMap<&str, &str> = HashMap::new();
    let mut functions: HashMap<&str, (&str, Option<&str>)> = HashMap::new();
    let (mut current, mut callee_object): (Option<&str>, Option<&str>) = (None, None);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for line in profile.lines() {
        let Some((key, rest)) = line.split_once('=') else {
            continue;
        };
        let Some(rest) = rest.strip_prefix('(') else { continue };
        let Some((id, name)) = rest.split_once(')') else {
            continue;
        };
        let name = name.strip_prefix(' ').filter(|n| !n.is_empty());
        match key {
            "ob" | "cob" => {
                if let Some(n) = name {
                    objects.insert(id, n);
                }
                let named = objects.get(id).copied();
                if key == "ob" {
                    (current, callee_object) = (named, None);
                } else {
                    callee_object = named;
                }
            }
            "fn" | "cfn" => {
                let owner = if key == "cfn" {
                    callee_object.or(current)
                } else {
                    current
                };
                if let Some(n) = name {
                    functions.insert(id, (n, owner));
                }
                callee_object = None;
                if let Some(&(n, Some(o))) = functions.get(id)
                    && o == object
                    && seen.insert(n)
                {
                    out.push(n.to_owned());
                }
            }
            _ => {}
        }
    }
    out
}

/// Where a compiler puts a function's code, with function sections: `.text.<name>`,
/// or a prefixed section when it judged the function cold, start-up or exit code.
const TEXT_PREFIXES: [&str; 5] = [
    ".text.",
    ".text.unlikely.",
    ".text.startup.",
    ".text.exit.",
    ".text.hot.",
];

/// The pattern standing for function `symbol` in section names: v0 crate hashes
/// open, and a suffix LLVM added to a local copy (`.llvm.123`, `.7`) open too.
/// `None` for what is not a plain symbol (callgrind's `0x...` for unnamed code).
/// A recursion mark (`'2`) is dropped.
pub fn symbol_pattern(symbol: &str) -> Option<String> {
    let symbol = symbol.split('\'').next()?;
    let (base, suffixed) = match symbol.split_once('.') {
        Some((base, _)) => (base, true),
        None => (symbol, false),
    };
    if base.is_empty() || base.starts_with("0x") || !base.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let mut pattern = String::new();
    if base.starts_with("_R") {
        let opened = open_backrefs(&open_crate_hashes(base));
        // A generic function's copy is named after the crate that instantiated it,
        // and which crate's copy a call lands on can differ between builds: the
        // trailing instantiating crate is left open.
        match instantiating_crate_start(&opened) {
            Some(cut) => {
                pattern.push_str(&opened[..cut]);
                pattern.push('*');
            }
            None => pattern.push_str(&opened),
        }
    } else {
        pattern.push_str(base);
    }
    if suffixed {
        pattern.push_str(".*");
    }
    Some(pattern)
}

/// `Cs<base-62 hash>_` (a crate root's disambiguator in a v0 symbol) as `Cs*_`.
/// Only where a crate root can start: the `_` is followed by the crate name's
/// decimal length.
fn open_crate_hashes(symbol: &str) -> String {
    open_numbered(
        symbol,
        "Cs",
        |digits| digits > 0,
        |next| next.is_some_and(u8::is_ascii_digit),
    )
}

/// Where a v0 symbol's instantiating crate starts, if it names one: a trailing crate
/// root (`Cs*_<length><name>`, hash already opened) or a trailing back-reference
/// (`B*_`) after the path, which itself ends in an identifier or generic arguments.
fn instantiating_crate_start(symbol: &str) -> Option<usize> {
    if let Some(head) = symbol.strip_suffix("B*_") {
        return Some(head.len());
    }
    let at = symbol.rfind("Cs*_")?;
    let rest = &symbol[at + 4..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let length: usize = rest[..digits].parse().ok()?;
    // The crate root must run to the end, and not be the whole path.
    (digits > 0 && rest.len() == digits + length && at > 3).then_some(at)
}

/// `B<base-62 position>_` (a v0 back-reference) as `B*_`: a position counts the
/// characters before it, crate hashes included, and a hash's length differs
/// between builds. At most four digits, so an identifier's text (`Bytes_...`) is
/// left alone.
fn open_backrefs(symbol: &str) -> String {
    open_numbered(symbol, "B", |digits| (1..=4).contains(&digits), |_| true)
}

/// Every `<marker><base-62 digits>_` in `symbol` as `<marker>*_`, where `count`
/// accepts the number of digits and `next` the byte after the `_` (if any).
fn open_numbered(
    symbol: &str,
    marker: &str,
    count: impl Fn(usize) -> bool,
    next: impl Fn(Option<&u8>) -> bool,
) -> String {
    let bytes = symbol.as_bytes();
    let mut out = String::with_capacity(symbol.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(marker.as_bytes()) {
            let start = i + marker.len();
            let digits = bytes[start..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
            let end = start + digits;
            if count(digits) && bytes.get(end) == Some(&b'_') && next(bytes.get(end + 1)) {
                out.push_str(marker);
                out.push_str("*_");
                i = end + 1;
                continue;
            }
        }
        out.push(char::from(bytes[i]));
        i += 1;
    }
    out
}

/// The script: one output section of the functions' sections, inserted before
/// `.text` (lld and GNU ld both keep their default layout otherwise). The patterns
/// are sorted: callgrind lists functions in an order of its own, which changes from
/// build to build, and sorted, a script written again differs only where the
/// functions do. The order inside the section does not matter to a start, which
/// runs every function in it and so faults in the whole section either way.
pub fn linker_script(functions: &[String]) -> String {
    let patterns: BTreeSet<String> = functions.iter().filter_map(|f| symbol_pattern(f)).collect();
    let mut script = String::from(
        "/* The sender's start-up code, laid out together so that a cold start faults in\n   \
         few pages. Written by `make init-order` (bench/src/init_order.rs); applied by\n   \
         functions/sender/build.rs. A pattern that matches nothing is harmless. */\n\
         SECTIONS\n{\n  .text.courier_init :\n  {\n",
    );
    for p in &patterns {
        let sections: Vec<String> = TEXT_PREFIXES.iter().map(|prefix| format!("{prefix}{p}")).collect();
        script.push_str(&format!("    *({})\n", sections.join(" ")));
    }
    script.push_str("  }\n}\nINSERT BEFORE .text;\n");
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v0_hashes_back_references_and_instantiating_crates_are_opened() {
        // (symbol, pattern)
        let cases: [(&str, Option<&str>); 8] = [
            ("_RNvCs4Dm8SlzMGBq_5tokio4main", Some("_RNvCs*_5tokio4main")),
            // A local copy's LLVM suffix, and the instantiating crate as a back-reference.
            (
                "_RINvNtCsd1_4core3ptr13drop_in_placeNtCsx9_5bytes5BytesEB4_.llvm.42",
                Some("_RINvNtCs*_4core3ptr13drop_in_placeNtCs*_5bytes5BytesE*.*"),
            ),
            // The instantiating crate as a crate root.
            (
                "_RINvNtCs1_4http3map4hashNtB2_4NameECs3pagiZNudLF_11courier_aws",
                Some("_RINvNtCs*_4http3map4hashNtB*_4NameE*"),
            ),
            // An identifier's `B..._` text is not a back-reference.
            (
                "_RNvMs3_NtCs1x_5alloc7raw_vecINtB5_6RawVecNtNtCs2y_3app7metrics14BusinessMetricE8grow_oneBS_",
                Some("_RNvMs3_NtCs*_5alloc7raw_vecINtB*_6RawVecNtNtCs*_3app7metrics14BusinessMetricE8grow_one*"),
            ),
            ("_RNvCsabc_3foo3bar'2", Some("_RNvCs*_3foo3bar")),
            ("mi_process_attach", Some("mi_process_attach")),
            ("0x00000000004df020", None),
            ("(below main)", None),
        ];
        for (symbol, pattern) in cases {
            assert_eq!(symbol_pattern(symbol).as_deref(), pattern, "{symbol}");
        }
    }

    #[test]
    fn callgrind_names_are_followed_across_objects() {
        let profile = "\
ob=(1) /bin/sender
fn=(1) _RNvCsa_3app4main
cob=(2) /lib/libc.so.6
cfn=(2) memcpy
calls=1 0
cfn=(3) _RNvCsa_3app4init
calls=1 0
fn=(4) mi_malloc
ob=(2)
fn=(2)
fn=(5) strlen
ob=(1)
fn=(3)
fn=(1)
";
        assert_eq!(
            executed_functions(profile, "/bin/sender"),
            vec!["_RNvCsa_3app4main", "_RNvCsa_3app4init", "mi_malloc"]
        );
        let script = linker_script(&executed_functions(profile, "/bin/sender"));
        let lines: Vec<&str> = script.lines().filter(|l| l.starts_with("    *(")).collect();
        assert_eq!(
            lines,
            [
                "    *(.text._RNvCs*_3app4init .text.unlikely._RNvCs*_3app4init .text.startup._RNvCs*_3app4init .text.exit._RNvCs*_3app4init .text.hot._RNvCs*_3app4init)",
                "    *(.text._RNvCs*_3app4main .text.unlikely._RNvCs*_3app4main .text.startup._RNvCs*_3app4main .text.exit._RNvCs*_3app4main .text.hot._RNvCs*_3app4main)",
                "    *(.text.mi_malloc .text.unlikely.mi_malloc .text.startup.mi_malloc .text.exit.mi_malloc .text.hot.mi_malloc)",
            ]
        );
        assert!(script.ends_with("INSERT BEFORE .text;\n"));
    }
}

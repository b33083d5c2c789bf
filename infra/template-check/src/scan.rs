//! Finds the AWS SDK operations a Rust source calls, without compiling it.
//!
//! Every SDK call ends in a fluent builder's `.send()`. For each `.send()` the scan
//! walks the method chain back to its start (`self.client.put_item()...`), or, when
//! the chain starts at a local builder variable (`let mut q = client.query()...;
//! ... q.send()`), to that variable's `let`. The chain's first call is the
//! operation; an operation missing from [`crate::actions::OPERATIONS`], or a chain
//! that leads nowhere, is an error, so a new kind of call cannot slip past the IAM
//! check unnoticed.

use crate::actions;

/// One Rust source file, named relative to the crate's `src/`.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// One SDK call site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SdkCall {
    pub file: String,
    pub line: usize,
    /// `Type::method` for a method in an `impl` block, else the free function's name.
    pub function: String,
    /// The SDK operation (`put_item`).
    pub operation: String,
    /// The IAM actions it needs (`dynamodb:PutItem`; a transaction: its items' actions).
    pub actions: Vec<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    #[error(
        "{file}:{line}: `{operation}` is not in the operation table (actions::OPERATIONS); add its IAM action there (chain: {chain})"
    )]
    UnknownOperation {
        file: String,
        line: usize,
        operation: String,
        chain: String,
    },
    #[error("{file}:{line}: cannot tell which SDK operation this `.send()` runs (chain: {chain})")]
    Unresolved { file: String, line: usize, chain: String },
    #[error("{file}:{line}: a transaction, but the file builds none of the item types in actions::TRANSACTION_ITEMS")]
    EmptyTransaction { file: String, line: usize },
}

/// A function's extent in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FnSpan {
    pub name: String,
    pub qualified: String,
    pub start: usize,
    pub body_start: usize,
    pub end: usize,
}

/// Replaces comments, string and char literals by spaces (newlines kept), so byte
/// offsets and line numbers stay as in the original.
pub fn blank(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let wipe = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in out.iter_mut().take(to).skip(from) {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
            wipe(&mut out, i, end);
            i = end;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                    depth += 1;
                    j += 2;
                } else if b[j] == b'*' && b.get(j + 1) == Some(&b'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            wipe(&mut out, i, j);
            i = j;
        } else if c == b'r' && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) && !prev_is_ident(b, i) {
            // Raw string r"..." / r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let from = i + 2 + hashes;
            let end = b[from..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| from + p + close.len());
            wipe(&mut out, i, end);
            i = end;
        } else if c == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            wipe(&mut out, i, end);
            i = end;
        } else if c == b'\'' {
            // A char literal ('a', '\n', '\u{..}', 'é'); otherwise a lifetime.
            if b.get(i + 1) == Some(&b'\\') {
                let end = b[i + 2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map_or(b.len(), |p| i + 2 + p + 1);
                wipe(&mut out, i, end);
                i = end;
            } else if let Some(ch) = text[i + 1..].chars().next() {
                let after = i + 1 + ch.len_utf8();
                if b.get(after) == Some(&b'\'') {
                    wipe(&mut out, i, after + 1);
                    i = after + 1;
                } else {
                    i += 1;
                }
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    // Only ASCII bytes inside literals/comments were replaced by ASCII spaces, and
    // every multi-byte character outside them is untouched.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn prev_is_ident(b: &[u8], i: usize) -> bool {
    i > 0 && is_ident(b[i - 1])
}

fn line_of(b: &[u8], pos: usize) -> usize {
    b[..pos].iter().filter(|&&c| c == b'\n').count() + 1
}

/// Index just past the last non-whitespace byte before `i`.
fn skip_ws_back(b: &[u8], mut i: usize) -> usize {
    while i > 0 && b[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    i
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The identifier ending just before `end`: (start, name).
fn ident_back(b: &[u8], end: usize) -> Option<(usize, String)> {
    let mut s = end;
    while s > 0 && is_ident(b[s - 1]) {
        s -= 1;
    }
    (s < end).then(|| (s, String::from_utf8_lossy(&b[s..end]).into_owned()))
}

/// Index of the bracket opening the one that closes at `close`.
fn matching_open(b: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = close + 1;
    while i > 0 {
        i -= 1;
        match b[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Index of the bracket closing the one that opens at `open`.
fn matching_close(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Link {
    Call(String),
    Field(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Root {
    /// A variable or `self`.
    Var(String),
    /// A path call such as `Client::new(config)`, or anything else.
    Expr,
}

#[derive(Debug, Clone)]
struct Chain {
    root: Root,
    links: Vec<Link>,
}

impl Chain {
    fn describe(&self) -> String {
        let mut s = match &self.root {
            Root::Var(v) => v.clone(),
            Root::Expr => "<expr>".to_owned(),
        };
        for l in &self.links {
            match l {
                Link::Call(n) => s.push_str(&format!(".{n}()")),
                Link::Field(n) => s.push_str(&format!(".{n}")),
            }
        }
        s
    }
}

/// The method chain ending just before `end` (exclusive).
fn chain_before(b: &[u8], end: usize) -> Chain {
    let mut links = Vec::new();
    let mut i = end;
    let root = loop {
        i = skip_ws_back(b, i);
        if i > 0 && b[i - 1] == b'?' {
            i = skip_ws_back(b, i - 1);
        }
        if i == 0 {
            break Root::Expr;
        }
        if b[i - 1] == b')' {
            let Some(open) = matching_open(b, i - 1) else {
                break Root::Expr;
            };
            let mut j = skip_ws_back(b, open);
            // Turbofish: name::<T>(...)
            if j > 0 && b[j - 1] == b'>' {
                let mut depth = 0;
                while j > 0 {
                    j -= 1;
                    match b[j] {
                        b'>' => depth += 1,
                        b'<' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                j = skip_ws_back(b, j);
                if j >= 2 && &b[j - 2..j] == b"::" {
                    j -= 2;
                }
            }
            let Some((start, name)) = ident_back(b, j) else {
                break Root::Expr;
            };
            let k = skip_ws_back(b, start);
            if k > 0 && b[k - 1] == b'.' {
                links.push(Link::Call(name));
                i = k - 1;
                continue;
            }
            // A path or free call starts the chain.
            break Root::Expr;
        } else if is_ident(b[i - 1]) {
            let Some((start, name)) = ident_back(b, i) else {
                break Root::Expr;
            };
            let k = skip_ws_back(b, start);
            if k > 0 && b[k - 1] == b'.' {
                // `.await` is not a link.
                if name != "await" {
                    links.push(Link::Field(name));
                }
                i = k - 1;
                continue;
            }
            if k >= 2 && &b[k - 2..k] == b"::" {
                break Root::Expr;
            }
            break Root::Var(name);
        } else {
            break Root::Expr;
        }
    };
    links.reverse();
    Chain { root, links }
}

/// Every function in the file with its `impl` type, in source order.
pub fn functions(blanked: &str) -> Vec<FnSpan> {
    let b = blanked.as_bytes();
    let mut impls: Vec<(usize, usize, String)> = Vec::new();
    for pos in keyword_positions(b, "impl") {
        // An item, not `impl Trait` in a signature: it follows `}`, `;`, `{`, an
        // attribute's `]`, or starts the file.
        let prev = skip_ws_back(b, pos);
        if prev > 0 && !matches!(b[prev - 1], b'}' | b';' | b'{' | b']') {
            continue;
        }
        let Some(open) = b[pos..].iter().position(|&c| c == b'{' || c == b';').map(|p| pos + p) else {
            continue;
        };
        if b[open] != b'{' {
            continue;
        }
        let Some(close) = matching_close(b, open) else { continue };
        let header = String::from_utf8_lossy(&b[pos + 4..open]).into_owned();
        let header = header.split(" where ").next().unwrap_or_default();
        let ty = header.rsplit(" for ").next().unwrap_or_default();
        let ty = strip_generics(ty);
        let ty = ty.trim().rsplit("::").next().unwrap_or_default().trim().to_owned();
        impls.push((open, close, ty));
    }
    let mut out = Vec::new();
    for pos in keyword_positions(b, "fn") {
        let name_at = skip_ws(b, pos + 2);
        let name_end = name_at + b[name_at..].iter().take_while(|&&c| is_ident(c)).count();
        if name_end == name_at {
            continue;
        }
        let name = String::from_utf8_lossy(&b[name_at..name_end]).into_owned();
        // The body is the first `{` at depth 0 after the signature (a `;` first: no body).
        let mut depth = 0i32;
        let mut body = None;
        for (j, &c) in b.iter().enumerate().skip(name_end) {
            match c {
                // The `>` of `->` closes nothing.
                b'>' if b[j - 1] == b'-' => {}
                b'(' | b'[' | b'<' => depth += 1,
                b')' | b']' | b'>' => depth -= 1,
                b'{' if depth <= 0 => {
                    body = Some(j);
                    break;
                }
                b';' if depth <= 0 => break,
                _ => {}
            }
        }
        let Some(body_start) = body else { continue };
        let Some(end) = matching_close(b, body_start) else {
            continue;
        };
        let owner = impls
            .iter()
            .filter(|(o, c, _)| *o < pos && pos < *c)
            .max_by_key(|(o, _, _)| *o);
        let qualified = match owner {
            Some((_, _, ty)) if !ty.is_empty() => format!("{ty}::{name}"),
            _ => name.clone(),
        };
        out.push(FnSpan {
            name,
            qualified,
            start: pos,
            body_start,
            end,
        });
    }
    out
}

fn strip_generics(s: &str) -> String {
    let mut depth = 0;
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Positions of `word` as a whole token.
fn keyword_positions(b: &[u8], word: &str) -> Vec<usize> {
    let w = word.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + w.len() <= b.len() {
        if &b[i..i + w.len()] == w && !prev_is_ident(b, i) && b.get(i + w.len()).is_none_or(|&c| !is_ident(c)) {
            out.push(i);
            i += w.len();
        } else {
            i += 1;
        }
    }
    out
}

/// The innermost function containing `pos`.
fn enclosing(fns: &[FnSpan], pos: usize) -> Option<&FnSpan> {
    fns.iter()
        .filter(|f| f.body_start < pos && pos < f.end)
        .max_by_key(|f| f.body_start)
}

/// The expression bound by the last `let [mut] name [: T] = EXPR;` in `from..pos`:
/// its end (the `;`).
fn binding_end(b: &[u8], from: usize, pos: usize, name: &str) -> Option<usize> {
    let mut found = None;
    for at in keyword_positions(&b[..pos], "let").into_iter().filter(|&p| p >= from) {
        let mut j = skip_ws(b, at + 3);
        if b[j..].starts_with(b"mut") && b.get(j + 3).is_some_and(|c| c.is_ascii_whitespace()) {
            j = skip_ws(b, j + 3);
        }
        let end = j + b[j..].iter().take_while(|&&c| is_ident(c)).count();
        if &b[j..end] != name.as_bytes() {
            continue;
        }
        let mut k = skip_ws(b, end);
        if b.get(k) == Some(&b':') {
            k += b[k..].iter().position(|&c| c == b'=').unwrap_or(0);
        }
        if b.get(k) != Some(&b'=') {
            continue;
        }
        // The statement's `;` at depth 0.
        let mut depth = 0i32;
        for (e, &c) in b.iter().enumerate().skip(k + 1) {
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                b';' if depth == 0 => {
                    found = Some(e);
                    break;
                }
                _ => {}
            }
        }
    }
    found
}

/// Calls a chain leads to when its start is a builder variable: resolves
/// `let` bindings (a few levels) until a chain begins with a call.
fn operation_of(
    b: &[u8],
    scope_start: usize,
    chain: &Chain,
    pos: usize,
    depth: usize,
) -> Result<String, Option<String>> {
    let first_call = chain
        .links
        .iter()
        .filter_map(|l| match l {
            Link::Call(n) => Some(n.as_str()),
            Link::Field(_) => None,
        })
        .find(|n| !actions::ACCESSORS.contains(n));
    if let Some(op) = first_call
        && actions::action_for(op).is_some()
    {
        return Ok(op.to_owned());
    }
    if let Root::Var(v) = &chain.root
        && v != "self"
        && depth < 4
        && let Some(end) = binding_end(b, scope_start, pos, v)
    {
        let inner = chain_before(b, end);
        return operation_of(b, scope_start, &inner, end, depth + 1);
    }
    Err(first_call.map(str::to_owned))
}

/// Every SDK call in `files`, or every call the scan could not account for.
pub fn scan(files: &[SourceFile]) -> Result<Vec<SdkCall>, Vec<ScanError>> {
    let mut calls = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        let blanked = blank(&file.text);
        let b = blanked.as_bytes();
        let fns = functions(&blanked);
        for send in keyword_positions(b, "send") {
            // `.send()` exactly: a method call with no arguments.
            let before = skip_ws_back(b, send);
            if before == 0 || b[before - 1] != b'.' {
                continue;
            }
            let open = skip_ws(b, send + 4);
            if b.get(open) != Some(&b'(') || b.get(skip_ws(b, open + 1)) != Some(&b')') {
                continue;
            }
            let dot = before - 1;
            let line = line_of(b, dot);
            let chain = chain_before(b, dot);
            let owner = enclosing(&fns, dot);
            let scope_start = owner.map_or(0, |f| f.body_start);
            match operation_of(b, scope_start, &chain, dot, 0) {
                Ok(operation) => {
                    let action = actions::action_for(&operation).unwrap_or_default();
                    let needed = if action == actions::TRANSACTION {
                        transaction_actions(b)
                    } else {
                        vec![action]
                    };
                    if needed.is_empty() {
                        errors.push(ScanError::EmptyTransaction {
                            file: file.name.clone(),
                            line,
                        });
                        continue;
                    }
                    calls.push(SdkCall {
                        file: file.name.clone(),
                        line,
                        function: owner.map_or_else(|| "<top level>".to_owned(), |f| f.qualified.clone()),
                        operation,
                        actions: needed,
                    });
                }
                Err(Some(operation)) => errors.push(ScanError::UnknownOperation {
                    file: file.name.clone(),
                    line,
                    operation,
                    chain: chain.describe(),
                }),
                Err(None) => errors.push(ScanError::Unresolved {
                    file: file.name.clone(),
                    line,
                    chain: chain.describe(),
                }),
            }
        }
    }
    if errors.is_empty() { Ok(calls) } else { Err(errors) }
}

/// The actions of the transaction item types a file builds (`Put::builder()`, ...).
fn transaction_actions(b: &[u8]) -> Vec<&'static str> {
    actions::TRANSACTION_ITEMS
        .iter()
        .filter(|(ty, _)| {
            keyword_positions(b, ty).into_iter().any(|p| {
                let after = skip_ws(b, p + ty.len());
                b[after..].starts_with(b"::") && b[skip_ws(b, after + 2)..].starts_with(b"builder")
            })
        })
        .map(|(_, action)| *action)
        .collect()
}

/// Whether `text` calls a method or function named `name` (`.name(`, `::name(`).
pub fn calls_method(text: &str, name: &str) -> bool {
    let blanked = blank(text);
    let b = blanked.as_bytes();
    keyword_positions(b, name).into_iter().any(|p| {
        let before = skip_ws_back(b, p);
        let called = b.get(skip_ws(b, p + name.len())) == Some(&b'(');
        let qualified = before > 0 && (b[before - 1] == b'.' || (before >= 2 && &b[before - 2..before] == b"::"));
        called && qualified
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Vec<SdkCall>, Vec<ScanError>> {
        scan(&[SourceFile {
            name: "x.rs".to_owned(),
            text: text.to_owned(),
        }])
    }

    #[test]
    fn comments_and_strings_are_blanked_in_place() {
        let src = "let a = \"x.send()\"; // c.send()\nlet c = 'a'; fn f<'a>() {} /* .send() */ r#\"q\"#";
        let out = blank(src);
        assert_eq!(out.len(), src.len());
        assert!(!out.contains("send"));
        assert!(out.contains("fn f<'a>()"));
    }

    #[test]
    fn direct_chains_and_builder_variables_resolve() {
        let src = r#"
impl Store {
    async fn get(&self) {
        self.client.get_item().table_name(&self.table).send().await?;
    }
    async fn page(&self) {
        let mut q = self
            .client
            .query()
            .limit(3);
        if x { q = q.filter_expression("a"); }
        let r = q.set_expression_attribute_values(Some(v)).send().await;
    }
}
async fn boot(client: &Client) {
    let mut create = client.create_table().table_name(t);
    create = create.attribute_definitions(a);
    match create.send().await {}
    let u = aws_sdk_sqs::Client::new(c).get_queue_url().queue_name(n).send().await;
}
"#;
        let calls = one(src).expect("scans");
        let got: Vec<(&str, Vec<&str>)> = calls.iter().map(|c| (c.function.as_str(), c.actions.clone())).collect();
        assert_eq!(
            got,
            vec![
                ("Store::get", vec!["dynamodb:GetItem"]),
                ("Store::page", vec!["dynamodb:Query"]),
                ("boot", vec!["dynamodb:CreateTable"]),
                ("boot", vec!["sqs:GetQueueUrl"]),
            ]
        );
    }

    #[test]
    fn a_transaction_needs_its_items_actions() {
        let src = "fn u() -> Update { Update::builder().key(k).build() }\n\
                   async fn f(c: &Client) { c.transact_write_items().transact_items(TransactWriteItem::builder().put(Put::builder().build()).build()).send().await; }";
        let calls = one(src).expect("scans");
        assert_eq!(calls[0].actions, vec!["dynamodb:PutItem", "dynamodb:UpdateItem"]);
        let errs = one("async fn f(c: &Client) { c.transact_write_items().send().await; }").expect_err("must fail");
        assert!(matches!(&errs[..], [ScanError::EmptyTransaction { .. }]), "{errs:?}");
    }

    #[test]
    fn an_unknown_operation_fails_loudly() {
        let errs = one("async fn f(c: &Client) { c.export_table_to_point_in_time().table_arn(t).send().await; }")
            .expect_err("must fail");
        assert!(
            matches!(&errs[..], [ScanError::UnknownOperation { operation, .. }] if operation == "export_table_to_point_in_time"),
            "{errs:?}"
        );
        let errs = one("async fn f(b: Builder) { b.send().await; }").expect_err("must fail");
        assert!(matches!(&errs[..], [ScanError::Unresolved { .. }]), "{errs:?}");
    }

    #[test]
    fn sends_with_arguments_are_not_sdk_calls() {
        assert_eq!(one("async fn f() { tx.send(1).await; }").expect("scans"), vec![]);
    }

    #[test]
    fn method_call_detection() {
        assert!(calls_method("x.ping().await", "ping"));
        assert!(calls_method("Self::ping (a)", "ping"));
        assert!(!calls_method("let ping = 1; // x.ping()", "ping"));
    }
}

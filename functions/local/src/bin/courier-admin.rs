//! `courier-admin`: operator tasks against a deployment's table, through the normal
//! AWS credential chain: create a tenant and its first API key (printed once; only
//! its hash is stored), and seal endpoint credentials stored before they were
//! sealed (the credentials migration, `courier_app::endpoints::credentials::seal_stored`).

use courier_app::adapters::system::{OsSecrets, OsSeededRandom, SystemClock};
use courier_app::endpoints::credentials::{MigrationRun, seal_stored};
use courier_aws::DynamoStore;
use courier_aws::credential_keys::{KmsDataKeys, KmsSealer};
use std::process::ExitCode;
use std::sync::Arc;

fn usage() -> ExitCode {
    eprintln!(
        "usage: courier-admin create-tenant --name NAME\n       courier-admin seal-credentials [--from CURSOR]\n(read COURIER_TABLE, seal-credentials also COURIER_CREDENTIALS_KEY, and the usual AWS_* settings)"
    );
    ExitCode::from(2)
}

fn env(name: &str, what: &str) -> Result<String, ExitCode> {
    std::env::var(name).ok().filter(|t| !t.is_empty()).ok_or_else(|| {
        eprintln!("courier-admin: set {name} to {what} (a stack output)");
        ExitCode::from(2)
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match args.as_slice() {
        [cmd, flag, name] if cmd == "create-tenant" && flag == "--name" => Command::CreateTenant(name.clone()),
        [cmd] if cmd == "seal-credentials" => Command::Seal(None),
        [cmd, flag, cursor] if cmd == "seal-credentials" && flag == "--from" => Command::Seal(Some(cursor.clone())),
        _ => return usage(),
    };
    let table = match env("COURIER_TABLE", "the deployment's table name") {
        Ok(t) => t,
        Err(code) => return code,
    };
    let sdk = match courier_aws::aws_config_from_env().await {
        Ok(sdk) => sdk,
        Err(e) => {
            eprintln!("courier-admin: {e}");
            return ExitCode::FAILURE;
        }
    };
    let store = Arc::new(DynamoStore::new(&sdk, table));
    match command {
        Command::CreateTenant(name) => create_tenant(&store, &name).await,
        Command::Seal(cursor) => {
            let key = match env("COURIER_CREDENTIALS_KEY", "the credentials key's ARN") {
                Ok(k) => k,
                Err(code) => return code,
            };
            let sealer = KmsDataKeys::new(&sdk, key, store.clone()).sealer(Arc::new(OsSecrets));
            seal_credentials(store, &sealer, cursor).await
        }
    }
}

enum Command {
    CreateTenant(String),
    /// Resume after this cursor, if given.
    Seal(Option<String>),
}

async fn create_tenant(store: &DynamoStore, name: &str) -> ExitCode {
    if name.is_empty() || name.len() > 128 {
        eprintln!("courier-admin: --name must be 1-128 characters");
        return ExitCode::from(2);
    }
    match courier_app::api::create_tenant(store, &OsSecrets, &OsSeededRandom::new(), &SystemClock, name).await {
        Ok((tenant, key)) => {
            println!("tenant   {}", tenant.id);
            println!("api key  {key}");
            println!("(the key is shown only now; Courier stores its SHA-256 hash)");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("courier-admin: could not create the tenant: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Seals every endpoint credential still stored plain, printing each page's
/// progress and the cursor to resume from if it stops.
async fn seal_credentials(store: Arc<DynamoStore>, sealer: &KmsSealer, cursor: Option<String>) -> ExitCode {
    let run = MigrationRun {
        cursor,
        ..MigrationRun::default()
    };
    let result = seal_stored(store.as_ref(), sealer, run, |r| {
        println!(
            "scanned {}  sealed {}  resume with: --from {}",
            r.scanned,
            r.sealed,
            r.next_cursor.as_deref().unwrap_or("(done)")
        );
    })
    .await;
    match result {
        Ok(r) => {
            println!("done: {} endpoints read, {} sealed", r.scanned, r.sealed);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("courier-admin: the migration stopped: {e} (run it again with the last --from shown)");
            ExitCode::FAILURE
        }
    }
}

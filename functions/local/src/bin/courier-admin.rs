//! `courier-admin`: operator tasks against a deployment's table, through the normal
//! AWS credential chain. For now: create a tenant and its first API key (printed
//! once; only its hash is stored).

use courier_app::system::{OsSecrets, OsSeededRandom, SystemClock};
use courier_aws::DynamoStore;
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: courier-admin create-tenant --name NAME   (reads COURIER_TABLE and the usual AWS_* settings)");
    ExitCode::from(2)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = match args.as_slice() {
        [cmd, flag, name] if cmd == "create-tenant" && flag == "--name" => name.clone(),
        _ => return usage(),
    };
    if name.is_empty() || name.len() > 128 {
        eprintln!("courier-admin: --name must be 1-128 characters");
        return ExitCode::from(2);
    }
    let Some(table) = std::env::var("COURIER_TABLE").ok().filter(|t| !t.is_empty()) else {
        eprintln!("courier-admin: set COURIER_TABLE to the deployment's table name (a stack output)");
        return ExitCode::from(2);
    };
    let sdk = match courier_aws::aws_config_from_env().await {
        Ok(sdk) => sdk,
        Err(e) => {
            eprintln!("courier-admin: {e}");
            return ExitCode::FAILURE;
        }
    };
    let store = DynamoStore::new(&sdk, table);
    match courier_app::api::create_tenant(&store, &OsSecrets, &OsSeededRandom::new(), &SystemClock, &name).await {
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

use clap::Args;

#[derive(Args)]
pub struct GuardArgs {}

pub fn run(_args: GuardArgs) -> anyhow::Result<()> {
    anyhow::bail!("guard is not implemented yet")
}

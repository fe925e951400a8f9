//! The agent arm of `cargo xtask eval --agent`: the value-model loop per task, against the
//! endpoint configured in the environment (SIGHTLINE_MODEL, SIGHTLINE_BASE_URL, …). It
//! reports what the loop costs and how often it falls back, beside the deterministic arms.
//! Without an endpoint it says so once and measures nothing.

use serde::Serialize;
use sightline_agent::provider::{self, ProviderConfig, ProviderOverrides};
use sightline_agent::{Budgets, ChatProvider, Trace};
use sightline_observe::Index;
use sightline_registry::{Intent, RegistryDatabase};
use sightline_validate::Rule;

/// One task as the agent arm saw it.
#[derive(Clone, Debug, Serialize)]
pub struct AgentTask {
    pub repo: String,
    pub query: String,
    pub stop: String,
    pub fell_back: bool,
    pub steps: usize,
    pub tool_calls: usize,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub continuations: usize,
    /// Flow links the report kept, and links dropped for an unverified quote.
    pub quotes_kept: usize,
    pub quotes_unverified: usize,
    /// Whether a gold file is among the report's primary places.
    pub gold_in_report: bool,
    pub seconds: f64,
}

pub struct Arm {
    provider: Option<Box<dyn ChatProvider + Send + Sync>>,
    budgets: Budgets,
    pub tasks: Vec<AgentTask>,
}

impl Arm {
    /// An arm that runs only when asked for and an endpoint is configured.
    pub fn new(requested: bool) -> Arm {
        let provider = if requested {
            match ProviderConfig::from_env(&ProviderOverrides::default()) {
                Ok(config) => {
                    eprintln!("eval: agent arm uses {}", config.describe());
                    Some(provider::connect(config))
                }
                Err(_) => {
                    eprintln!("agent arm skipped: no model endpoint configured");
                    None
                }
            }
        } else {
            None
        };
        Arm {
            provider,
            budgets: Budgets::default(),
            tasks: Vec::new(),
        }
    }

    /// Runs the loop for one task (a no-op without an endpoint).
    pub fn task(
        &mut self,
        index: &mut Index<RegistryDatabase>,
        repo: &str,
        query: &str,
        gold: &[String],
    ) {
        let Some(provider) = self.provider.as_ref() else {
            return;
        };
        let run = sightline_agent::agent::explore(
            index,
            query,
            Intent::Locate,
            provider.as_ref(),
            &self.budgets,
            &mut Trace::disabled(),
        );
        let run = match run {
            Ok(run) => run,
            Err(e) => {
                eprintln!("eval: agent arm could not open a session: {e}");
                return;
            }
        };
        let v = &run.finished.validated;
        let task = AgentTask {
            repo: repo.to_owned(),
            query: query.to_owned(),
            stop: run.stop.to_string(),
            fell_back: run.stop.is_fallback() || v.fell_back,
            steps: run.stats.steps,
            tool_calls: run.stats.tool_calls,
            input_tokens: run.stats.usage.input_tokens,
            output_tokens: run.stats.usage.output_tokens,
            continuations: run.stats.continuations,
            quotes_kept: v.selection.flow.len(),
            quotes_unverified: v
                .drops
                .iter()
                .filter(|d| d.rule == Rule::QuoteUnverified)
                .count(),
            gold_in_report: run
                .finished
                .report
                .json
                .primary
                .iter()
                .any(|p| gold.contains(&p.path)),
            seconds: run.elapsed.as_secs_f64(),
        };
        eprintln!(
            "  agent: {} steps, {} calls, {}+{} tokens, stop: {}",
            task.steps, task.tool_calls, task.input_tokens, task.output_tokens, task.stop
        );
        self.tasks.push(task);
    }

    /// A markdown section of aggregates, empty when the arm did not run.
    pub fn summary(&self) -> String {
        let n = self.tasks.len();
        if n == 0 {
            return String::new();
        }
        let mean = |f: &dyn Fn(&AgentTask) -> f64| self.tasks.iter().map(f).sum::<f64>() / n as f64;
        let share = |f: &dyn Fn(&AgentTask) -> bool| {
            self.tasks.iter().filter(|t| f(t)).count() as f64 / n as f64
        };
        let kept: usize = self.tasks.iter().map(|t| t.quotes_kept).sum();
        let unverified: usize = self.tasks.iter().map(|t| t.quotes_unverified).sum();
        let unverified_rate = if kept + unverified == 0 {
            0.0
        } else {
            unverified as f64 / (kept + unverified) as f64
        };
        format!(
            "\n## agent arm ({n} tasks)\n\n\
             | figure | value |\n|---|---|\n\
             | gold file in report | {:.3} |\n\
             | fallback rate | {:.3} |\n\
             | unverified-quote rate | {unverified_rate:.3} |\n\
             | steps (mean) | {:.1} |\n\
             | tool calls (mean) | {:.1} |\n\
             | input tokens (mean) | {:.0} |\n\
             | output tokens (mean) | {:.0} |\n\
             | continuation rounds (mean) | {:.2} |\n\
             | seconds (mean) | {:.1} |\n",
            share(&|t| t.gold_in_report),
            share(&|t| t.fell_back),
            mean(&|t| t.steps as f64),
            mean(&|t| t.tool_calls as f64),
            mean(&|t| t.input_tokens as f64),
            mean(&|t| t.output_tokens as f64),
            mean(&|t| t.continuations as f64),
            mean(&|t| t.seconds),
        )
    }
}

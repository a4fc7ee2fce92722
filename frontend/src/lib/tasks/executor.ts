// Where a task runs, in words: the New task form's choice and the task
// pane's line (Go: task.Executor, app.ExecutorView; docs/cluster.md).
import type { ExecutorView, TaskExecutor } from '../backend/types';

/** The cluster named: "namespace agents, context prod" ("" context: the kubeconfig's current one). */
export function clusterName(v: ExecutorView): string {
  return `namespace ${v.namespace}, ${v.context ? `context ${v.context}` : "the kubeconfig's current context"}`;
}

/** Where the settings send a task that does not choose: the form's first choice. */
export function defaultExecutor(v: ExecutorView | null | undefined): TaskExecutor {
  return v?.cluster && v.default === 'kubernetes' ? 'kubernetes' : 'local';
}

/**
 * The task pane's line: where the task runs, its own choice or the settings'
 * default; "" for a task that does not choose while no cluster is configured
 * (every task then runs on this machine, as before clusters).
 */
export function whereItRuns(executor: TaskExecutor | '' | undefined, v: ExecutorView | null | undefined): string {
  const cluster = (how: string) => `Runs in the cluster${how}: a Kubernetes Job${v?.cluster ? ` (${clusterName(v)})` : ''}.`;
  if (executor === 'kubernetes') return cluster('');
  if (executor === 'local') return 'Runs on this machine.';
  if (!v?.cluster) return '';
  return v.default === 'kubernetes' ? cluster(" (the settings' default)") : "Runs on this machine (the settings' default).";
}

// RunService: the runner and the running task (Go: app/run.go).
import type { InjectResult, OutputSnapshot, RunnerStatus, TranscriptPage } from './types';

export interface RunApi {
  'RunService.Status': () => Promise<RunnerStatus>;
  'RunService.SetEnabled': (enabled: boolean) => Promise<RunnerStatus>;
  'RunService.ResumeTool': (tool: string) => Promise<RunnerStatus>;
  'RunService.Stop': (taskId: string) => Promise<void>;
  'RunService.Inject': (taskId: string, text: string) => Promise<InjectResult>;
  'RunService.Output': (taskId: string) => Promise<OutputSnapshot>;
  'RunService.Transcript': (taskId: string, offset: number, limit: number) => Promise<TranscriptPage>;
}

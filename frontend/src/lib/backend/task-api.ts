// TaskService: the tasks and their content (Go: app/tasks.go).
import type { Attachment, AttachmentInput, CreateTaskInput, DeleteOptions, ImportResult, ListFilter, TaskDetail, TaskUpdate, TaskView } from './types';

export interface TaskApi {
  'TaskService.List': (filter: ListFilter) => Promise<TaskView[]>;
  'TaskService.Create': (input: CreateTaskInput) => Promise<TaskView>;
  'TaskService.Get': (id: string) => Promise<TaskDetail>;
  'TaskService.Update': (id: string, update: TaskUpdate) => Promise<TaskView>;
  'TaskService.SetPriority': (id: string, priority: number) => Promise<TaskView>;
  'TaskService.SetSkip': (id: string, skip: boolean) => Promise<TaskView>;
  'TaskService.Reorder': (ids: string[]) => Promise<void>;
  'TaskService.Retry': (id: string) => Promise<TaskView>;
  'TaskService.RetryFrom': (id: string, from: string) => Promise<TaskView>;
  'TaskService.Archive': (id: string) => Promise<TaskView>;
  'TaskService.Unarchive': (id: string) => Promise<TaskView>;
  'TaskService.Delete': (id: string, opts: DeleteOptions) => Promise<void>;
  'TaskService.Export': (id: string) => Promise<string>;
  'TaskService.Import': (markdown: string, again: boolean) => Promise<ImportResult>;
  'TaskService.Answer': (id: string, answer: string) => Promise<TaskView>;
  'TaskService.Branches': () => Promise<string[]>;
  'TaskService.AddAttachment': (id: string, file: AttachmentInput) => Promise<Attachment[]>;
  'TaskService.RemoveAttachment': (id: string, name: string) => Promise<Attachment[]>;
}

export namespace app {
	
	export class AcceptInput {
	    target: string;
	    strategy: string;
	    message: string;
	    include_leftovers: boolean;
	    expect_target: string;
	    only: review.Selection[];
	    expect_head: string;
	
	    static createFrom(source: any = {}) {
	        return new AcceptInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.target = source["target"];
	        this.strategy = source["strategy"];
	        this.message = source["message"];
	        this.include_leftovers = source["include_leftovers"];
	        this.expect_target = source["expect_target"];
	        this.only = this.convertValues(source["only"], review.Selection);
	        this.expect_head = source["expect_head"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AttachmentInput {
	    name: string;
	    data_base64: string;
	
	    static createFrom(source: any = {}) {
	        return new AttachmentInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.data_base64 = source["data_base64"];
	    }
	}
	export class BreakersView {
	    tool_calls: number;
	    repeat_failures: number;
	    no_progress: number;
	    tokens_per_minute: number;
	    velocity_window_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new BreakersView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool_calls = source["tool_calls"];
	        this.repeat_failures = source["repeat_failures"];
	        this.no_progress = source["no_progress"];
	        this.tokens_per_minute = source["tokens_per_minute"];
	        this.velocity_window_ms = source["velocity_window_ms"];
	    }
	}
	export class BudgetRetryResult {
	    retried: budget.Stopped[];
	    held: budget.Stopped[];
	
	    static createFrom(source: any = {}) {
	        return new BudgetRetryResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.retried = this.convertValues(source["retried"], budget.Stopped);
	        this.held = this.convertValues(source["held"], budget.Stopped);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LimitView {
	    usd?: number;
	    tokens?: number;
	    mode: string;
	
	    static createFrom(source: any = {}) {
	        return new LimitView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.usd = source["usd"];
	        this.tokens = source["tokens"];
	        this.mode = source["mode"];
	    }
	}
	export class BudgetsView {
	    task?: LimitView;
	    daily?: LimitView;
	    monthly?: LimitView;
	
	    static createFrom(source: any = {}) {
	        return new BudgetsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task = this.convertValues(source["task"], LimitView);
	        this.daily = this.convertValues(source["daily"], LimitView);
	        this.monthly = this.convertValues(source["monthly"], LimitView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CheckView {
	    name: string;
	    state: string;
	    url: string;
	
	    static createFrom(source: any = {}) {
	        return new CheckView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.state = source["state"];
	        this.url = source["url"];
	    }
	}
	export class Command {
	    id: string;
	    name: string;
	    body: string;
	    // Go type: time
	    updated_at: any;
	
	    static createFrom(source: any = {}) {
	        return new Command(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.body = source["body"];
	        this.updated_at = this.convertValues(source["updated_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CommandInput {
	    id: string;
	    name: string;
	    body: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.body = source["body"];
	    }
	}
	export class CronPreview {
	    cron: string;
	    tz: string;
	    text: string;
	    next: string[];
	
	    static createFrom(source: any = {}) {
	        return new CronPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.cron = source["cron"];
	        this.tz = source["tz"];
	        this.text = source["text"];
	        this.next = source["next"];
	    }
	}
	export class DeleteOptions {
	    delete_branches: boolean;
	
	    static createFrom(source: any = {}) {
	        return new DeleteOptions(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.delete_branches = source["delete_branches"];
	    }
	}
	export class DiffCursor {
	    hunk: number;
	    line: number;
	
	    static createFrom(source: any = {}) {
	        return new DiffCursor(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hunk = source["hunk"];
	        this.line = source["line"];
	    }
	}
	export class DiffFile {
	    path: string;
	    old_path?: string;
	    change: string;
	    additions: number;
	    deletions: number;
	    binary: boolean;
	    similarity?: number;
	    old_mode: string;
	    new_mode: string;
	    mode_changed: boolean;
	    hash: string;
	    language: string;
	
	    static createFrom(source: any = {}) {
	        return new DiffFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.old_path = source["old_path"];
	        this.change = source["change"];
	        this.additions = source["additions"];
	        this.deletions = source["deletions"];
	        this.binary = source["binary"];
	        this.similarity = source["similarity"];
	        this.old_mode = source["old_mode"];
	        this.new_mode = source["new_mode"];
	        this.mode_changed = source["mode_changed"];
	        this.hash = source["hash"];
	        this.language = source["language"];
	    }
	}
	export class DiffSummary {
	    task_id: string;
	    base: string;
	    head: string;
	    files: DiffFile[];
	
	    static createFrom(source: any = {}) {
	        return new DiffSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task_id = source["task_id"];
	        this.base = source["base"];
	        this.head = source["head"];
	        this.files = this.convertValues(source["files"], DiffFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ExecutorView {
	    cluster: boolean;
	    default: string;
	    context: string;
	    namespace: string;
	
	    static createFrom(source: any = {}) {
	        return new ExecutorView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.cluster = source["cluster"];
	        this.default = source["default"];
	        this.context = source["context"];
	        this.namespace = source["namespace"];
	    }
	}
	export class FeedItem {
	    seq: number;
	    // Go type: time
	    at: any;
	    role: string;
	    kind: string;
	    data: any;
	
	    static createFrom(source: any = {}) {
	        return new FeedItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.at = this.convertValues(source["at"], null);
	        this.role = source["role"];
	        this.kind = source["kind"];
	        this.data = source["data"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FieldError {
	    path: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new FieldError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.message = source["message"];
	    }
	}
	export class FileDiff {
	    path: string;
	    old_path?: string;
	    change: string;
	    additions: number;
	    deletions: number;
	    binary: boolean;
	    similarity?: number;
	    old_mode: string;
	    new_mode: string;
	    mode_changed: boolean;
	    hash: string;
	    language: string;
	    base: string;
	    head: string;
	    hunks: worktree.DiffHunk[];
	    lines: number;
	    next?: DiffCursor;
	    new_total: number;
	
	    static createFrom(source: any = {}) {
	        return new FileDiff(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.old_path = source["old_path"];
	        this.change = source["change"];
	        this.additions = source["additions"];
	        this.deletions = source["deletions"];
	        this.binary = source["binary"];
	        this.similarity = source["similarity"];
	        this.old_mode = source["old_mode"];
	        this.new_mode = source["new_mode"];
	        this.mode_changed = source["mode_changed"];
	        this.hash = source["hash"];
	        this.language = source["language"];
	        this.base = source["base"];
	        this.head = source["head"];
	        this.hunks = this.convertValues(source["hunks"], worktree.DiffHunk);
	        this.lines = source["lines"];
	        this.next = this.convertValues(source["next"], DiffCursor);
	        this.new_total = source["new_total"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileDiffRequest {
	    path: string;
	    ignore_whitespace: boolean;
	    leftovers: boolean;
	    from_hunk: number;
	    from_line: number;
	    max_lines: number;
	
	    static createFrom(source: any = {}) {
	        return new FileDiffRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.ignore_whitespace = source["ignore_whitespace"];
	        this.leftovers = source["leftovers"];
	        this.from_hunk = source["from_hunk"];
	        this.from_line = source["from_line"];
	        this.max_lines = source["max_lines"];
	    }
	}
	export class FileLines {
	    path: string;
	    side: string;
	    from: number;
	    to: number;
	    total: number;
	    lines: string[];
	
	    static createFrom(source: any = {}) {
	        return new FileLines(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.side = source["side"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.total = source["total"];
	        this.lines = source["lines"];
	    }
	}
	export class FileLinesRequest {
	    path: string;
	    side: string;
	    from: number;
	    to: number;
	    leftovers: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FileLinesRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.side = source["side"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.leftovers = source["leftovers"];
	    }
	}
	export class FilePatch {
	    path: string;
	    patch: string;
	    binary: boolean;
	    too_large: boolean;
	    bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new FilePatch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.patch = source["patch"];
	        this.binary = source["binary"];
	        this.too_large = source["too_large"];
	        this.bytes = source["bytes"];
	    }
	}
	export class FixResult {
	    fix: number;
	    comments: number;
	
	    static createFrom(source: any = {}) {
	        return new FixResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.fix = source["fix"];
	        this.comments = source["comments"];
	    }
	}
	export class FrontendError {
	    kind: string;
	    message: string;
	    source: string;
	    line: number;
	    column: number;
	    stack: string;
	
	    static createFrom(source: any = {}) {
	        return new FrontendError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.message = source["message"];
	        this.source = source["source"];
	        this.line = source["line"];
	        this.column = source["column"];
	        this.stack = source["stack"];
	    }
	}
	export class ImportResult {
	    task: task.Task;
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task = this.convertValues(source["task"], task.Task);
	        this.notes = source["notes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class InjectResult {
	    injection_id: string;
	    delivery: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new InjectResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.injection_id = source["injection_id"];
	        this.delivery = source["delivery"];
	        this.message = source["message"];
	    }
	}
	export class Injection {
	    id: string;
	    text: string;
	    delivery: string;
	    applied: boolean;
	    step?: string;
	    // Go type: time
	    created_at: any;
	
	    static createFrom(source: any = {}) {
	        return new Injection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.text = source["text"];
	        this.delivery = source["delivery"];
	        this.applied = source["applied"];
	        this.step = source["step"];
	        this.created_at = this.convertValues(source["created_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class IssueTaskInput {
	    url: string;
	    title: string;
	    labels: string[];
	    priority: number;
	    base: string;
	    repo: string;
	
	    static createFrom(source: any = {}) {
	        return new IssueTaskInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.url = source["url"];
	        this.title = source["title"];
	        this.labels = source["labels"];
	        this.priority = source["priority"];
	        this.base = source["base"];
	        this.repo = source["repo"];
	    }
	}
	export class IssueView {
	    number: number;
	    url: string;
	    title: string;
	
	    static createFrom(source: any = {}) {
	        return new IssueView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.number = source["number"];
	        this.url = source["url"];
	        this.title = source["title"];
	    }
	}
	
	export class LimitsView {
	    on_limit: string;
	    switch_order: string[];
	
	    static createFrom(source: any = {}) {
	        return new LimitsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.on_limit = source["on_limit"];
	        this.switch_order = source["switch_order"];
	    }
	}
	export class ListFilter {
	    status: string;
	    search: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new ListFilter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.search = source["search"];
	        this.label = source["label"];
	    }
	}
	export class NewTaskInput {
	    title: string;
	    prompt: string;
	    priority: number;
	    base: string;
	    labels: string[];
	    runs: number;
	    command: string;
	    attachments: AttachmentInput[];
	    // Go type: time
	    not_before?: any;
	    repo: string;
	    executor?: string;
	
	    static createFrom(source: any = {}) {
	        return new NewTaskInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.prompt = source["prompt"];
	        this.priority = source["priority"];
	        this.base = source["base"];
	        this.labels = source["labels"];
	        this.runs = source["runs"];
	        this.command = source["command"];
	        this.attachments = this.convertValues(source["attachments"], AttachmentInput);
	        this.not_before = this.convertValues(source["not_before"], null);
	        this.repo = source["repo"];
	        this.executor = source["executor"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OpenInput {
	    remote: string;
	    branch: string;
	    draft?: boolean;
	    labels: string[];
	    reviewers: string[];
	
	    static createFrom(source: any = {}) {
	        return new OpenInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.remote = source["remote"];
	        this.branch = source["branch"];
	        this.draft = source["draft"];
	        this.labels = source["labels"];
	        this.reviewers = source["reviewers"];
	    }
	}
	export class PullRequestView {
	    task_id: string;
	    pushed: boolean;
	    remote: string;
	    branch: string;
	    pushed_sha: string;
	    forge: string;
	    host: string;
	    project: string;
	    number: number;
	    url: string;
	    state: string;
	    review: string;
	    checks: CheckView[];
	    merge_sha: string;
	    problem: string;
	    synced_at: string;
	    issue?: IssueView;
	
	    static createFrom(source: any = {}) {
	        return new PullRequestView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task_id = source["task_id"];
	        this.pushed = source["pushed"];
	        this.remote = source["remote"];
	        this.branch = source["branch"];
	        this.pushed_sha = source["pushed_sha"];
	        this.forge = source["forge"];
	        this.host = source["host"];
	        this.project = source["project"];
	        this.number = source["number"];
	        this.url = source["url"];
	        this.state = source["state"];
	        this.review = source["review"];
	        this.checks = this.convertValues(source["checks"], CheckView);
	        this.merge_sha = source["merge_sha"];
	        this.problem = source["problem"];
	        this.synced_at = source["synced_at"];
	        this.issue = this.convertValues(source["issue"], IssueView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OpenResult {
	    pull_request: PullRequestView;
	    existing: boolean;
	    problem: string;
	
	    static createFrom(source: any = {}) {
	        return new OpenResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pull_request = this.convertValues(source["pull_request"], PullRequestView);
	        this.existing = source["existing"];
	        this.problem = source["problem"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OutputSnapshot {
	    task_id: string;
	    feed: FeedItem[];
	    terminal: string;
	    transcript_bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new OutputSnapshot(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task_id = source["task_id"];
	        this.feed = this.convertValues(source["feed"], FeedItem);
	        this.terminal = source["terminal"];
	        this.transcript_bytes = source["transcript_bytes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PatchRequest {
	    force: boolean;
	    ignore_whitespace: boolean;
	    leftovers: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PatchRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.force = source["force"];
	        this.ignore_whitespace = source["ignore_whitespace"];
	        this.leftovers = source["leftovers"];
	    }
	}
	export class PausedTool {
	    tool: string;
	    // Go type: time
	    until: any;
	    text: string;
	    warning?: string;
	
	    static createFrom(source: any = {}) {
	        return new PausedTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.until = this.convertValues(source["until"], null);
	        this.text = source["text"];
	        this.warning = source["warning"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class PushInput {
	    remote: string;
	    branch: string;
	
	    static createFrom(source: any = {}) {
	        return new PushInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.remote = source["remote"];
	        this.branch = source["branch"];
	    }
	}
	export class PushResult {
	    pull_request: PullRequestView;
	    kind: string;
	
	    static createFrom(source: any = {}) {
	        return new PushResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pull_request = this.convertValues(source["pull_request"], PullRequestView);
	        this.kind = source["kind"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class QueueAddInput {
	    target: string;
	    strategy: string;
	
	    static createFrom(source: any = {}) {
	        return new QueueAddInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.target = source["target"];
	        this.strategy = source["strategy"];
	    }
	}
	export class QueueItem {
	    id: number;
	    task_id: string;
	    title: string;
	    repo: string;
	    target: string;
	    strategy: string;
	    state: string;
	    reason: string;
	    files: string[];
	    output: string;
	    landed: string;
	    verified: boolean;
	    attempts: number;
	    // Go type: time
	    updated_at: any;
	
	    static createFrom(source: any = {}) {
	        return new QueueItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.task_id = source["task_id"];
	        this.title = source["title"];
	        this.repo = source["repo"];
	        this.target = source["target"];
	        this.strategy = source["strategy"];
	        this.state = source["state"];
	        this.reason = source["reason"];
	        this.files = source["files"];
	        this.output = source["output"];
	        this.landed = source["landed"];
	        this.verified = source["verified"];
	        this.attempts = source["attempts"];
	        this.updated_at = this.convertValues(source["updated_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RecentRepository {
	    path: string;
	    working_directory: boolean;
	    tasks: number;
	    // Go type: time
	    last_used?: any;
	
	    static createFrom(source: any = {}) {
	        return new RecentRepository(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.working_directory = source["working_directory"];
	        this.tasks = source["tasks"];
	        this.last_used = this.convertValues(source["last_used"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RemoteView {
	    name: string;
	    url: string;
	    forge: string;
	
	    static createFrom(source: any = {}) {
	        return new RemoteView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.url = source["url"];
	        this.forge = source["forge"];
	    }
	}
	export class RepoVerifyView {
	    path: string;
	    command: string;
	    exists: boolean;
	    suggestions: verify.Suggestion[];
	
	    static createFrom(source: any = {}) {
	        return new RepoVerifyView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.command = source["command"];
	        this.exists = source["exists"];
	        this.suggestions = this.convertValues(source["suggestions"], verify.Suggestion);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Report {
	    role: string;
	    round: number;
	    iteration: number;
	    verdict?: string;
	    body: string;
	    // Go type: time
	    created_at: any;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.round = source["round"];
	        this.iteration = source["iteration"];
	        this.verdict = source["verdict"];
	        this.body = source["body"];
	        this.created_at = this.convertValues(source["created_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RetriesView {
	    transient: number;
	    backoff_ms: number[];
	    idle_timeout_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new RetriesView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.transient = source["transient"];
	        this.backoff_ms = source["backoff_ms"];
	        this.idle_timeout_ms = source["idle_timeout_ms"];
	    }
	}
	export class ReviewView {
	    gate: boolean;
	    max_fix_rounds: number;
	    max_inline_diff_bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new ReviewView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.gate = source["gate"];
	        this.max_fix_rounds = source["max_fix_rounds"];
	        this.max_inline_diff_bytes = source["max_inline_diff_bytes"];
	    }
	}
	export class RoleChoice {
	    tool: string;
	    model: string;
	    write: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RoleChoice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.model = source["model"];
	        this.write = source["write"];
	    }
	}
	export class RolesView {
	    planner: RoleChoice;
	    refinement: RoleChoice;
	    developer: RoleChoice;
	    observer?: RoleChoice;
	    reviewer: RoleChoice;
	
	    static createFrom(source: any = {}) {
	        return new RolesView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.planner = this.convertValues(source["planner"], RoleChoice);
	        this.refinement = this.convertValues(source["refinement"], RoleChoice);
	        this.developer = this.convertValues(source["developer"], RoleChoice);
	        this.observer = this.convertValues(source["observer"], RoleChoice);
	        this.reviewer = this.convertValues(source["reviewer"], RoleChoice);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunningInfo {
	    task_id: string;
	    title: string;
	    role: string;
	    round: number;
	    iteration: number;
	    iterations: number;
	    fix?: number;
	    // Go type: time
	    step_started_at: any;
	    // Go type: time
	    started_at: any;
	    tool: string;
	    model: string;
	    usage: task.Usage;
	    resources: procstat.Stats;
	
	    static createFrom(source: any = {}) {
	        return new RunningInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task_id = source["task_id"];
	        this.title = source["title"];
	        this.role = source["role"];
	        this.round = source["round"];
	        this.iteration = source["iteration"];
	        this.iterations = source["iterations"];
	        this.fix = source["fix"];
	        this.step_started_at = this.convertValues(source["step_started_at"], null);
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.tool = source["tool"];
	        this.model = source["model"];
	        this.usage = this.convertValues(source["usage"], task.Usage);
	        this.resources = this.convertValues(source["resources"], procstat.Stats);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunnerStatus {
	    enabled: boolean;
	    lock_held: boolean;
	    lock_message?: string;
	    running: RunningInfo[];
	    paused?: PausedTool[];
	
	    static createFrom(source: any = {}) {
	        return new RunnerStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.lock_held = source["lock_held"];
	        this.lock_message = source["lock_message"];
	        this.running = this.convertValues(source["running"], RunningInfo);
	        this.paused = this.convertValues(source["paused"], PausedTool);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class StopView {
	    grace_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new StopView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.grace_ms = source["grace_ms"];
	    }
	}
	export class WorktreeView {
	    root: string;
	    on_done: string;
	    on_failure: string;
	
	    static createFrom(source: any = {}) {
	        return new WorktreeView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.on_done = source["on_done"];
	        this.on_failure = source["on_failure"];
	    }
	}
	export class SettingsView {
	    working_directory: string;
	    runner_enabled: boolean;
	    concurrency: number;
	    notifications: boolean;
	    close_to_tray: boolean;
	    start_at_login: boolean;
	    default_tool: string;
	    roles: RolesView;
	    review: ReviewView;
	    worktree: WorktreeView;
	    retries: RetriesView;
	    stop: StopView;
	    budgets: BudgetsView;
	    breakers: BreakersView;
	    limits: LimitsView;
	    executor: ExecutorView;
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.working_directory = source["working_directory"];
	        this.runner_enabled = source["runner_enabled"];
	        this.concurrency = source["concurrency"];
	        this.notifications = source["notifications"];
	        this.close_to_tray = source["close_to_tray"];
	        this.start_at_login = source["start_at_login"];
	        this.default_tool = source["default_tool"];
	        this.roles = this.convertValues(source["roles"], RolesView);
	        this.review = this.convertValues(source["review"], ReviewView);
	        this.worktree = this.convertValues(source["worktree"], WorktreeView);
	        this.retries = this.convertValues(source["retries"], RetriesView);
	        this.stop = this.convertValues(source["stop"], StopView);
	        this.budgets = this.convertValues(source["budgets"], BudgetsView);
	        this.breakers = this.convertValues(source["breakers"], BreakersView);
	        this.limits = this.convertValues(source["limits"], LimitsView);
	        this.executor = this.convertValues(source["executor"], ExecutorView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SaveSettingsResult {
	    saved: boolean;
	    errors: FieldError[];
	    settings: SettingsView;
	    load_error?: string;
	
	    static createFrom(source: any = {}) {
	        return new SaveSettingsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.saved = source["saved"];
	        this.errors = this.convertValues(source["errors"], FieldError);
	        this.settings = this.convertValues(source["settings"], SettingsView);
	        this.load_error = source["load_error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ScheduleInput {
	    name: string;
	    cron: string;
	    tz: string;
	    task: NewTaskInput;
	
	    static createFrom(source: any = {}) {
	        return new ScheduleInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.cron = source["cron"];
	        this.tz = source["tz"];
	        this.task = this.convertValues(source["task"], NewTaskInput);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ScheduledTaskRef {
	    id: string;
	    title: string;
	    status: string;
	
	    static createFrom(source: any = {}) {
	        return new ScheduledTaskRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.status = source["status"];
	    }
	}
	export class ScheduleView {
	    id: string;
	    name: string;
	    display: string;
	    cron: string;
	    cron_text: string;
	    tz: string;
	    paused: boolean;
	    // Go type: time
	    next_fire?: any;
	    // Go type: time
	    last_fire?: any;
	    last_task?: ScheduledTaskRef;
	    template: task.NewTask;
	    // Go type: time
	    created_at: any;
	
	    static createFrom(source: any = {}) {
	        return new ScheduleView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.display = source["display"];
	        this.cron = source["cron"];
	        this.cron_text = source["cron_text"];
	        this.tz = source["tz"];
	        this.paused = source["paused"];
	        this.next_fire = this.convertValues(source["next_fire"], null);
	        this.last_fire = this.convertValues(source["last_fire"], null);
	        this.last_task = this.convertValues(source["last_task"], ScheduledTaskRef);
	        this.template = this.convertValues(source["template"], task.NewTask);
	        this.created_at = this.convertValues(source["created_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class ToolHealthView {
	    tool: string;
	    installed: boolean;
	    version: string;
	    authenticated: boolean;
	    reachable: boolean;
	    error?: string;
	    path: string;
	    // Go type: time
	    checked_at: any;
	
	    static createFrom(source: any = {}) {
	        return new ToolHealthView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.installed = source["installed"];
	        this.version = source["version"];
	        this.authenticated = source["authenticated"];
	        this.reachable = source["reachable"];
	        this.error = source["error"];
	        this.path = source["path"];
	        this.checked_at = this.convertValues(source["checked_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SetupStatus {
	    ready: boolean;
	    problems: setup.Problem[];
	    working_directory: string;
	    tools: ToolHealthView[];
	    dismissed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SetupStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ready = source["ready"];
	        this.problems = this.convertValues(source["problems"], setup.Problem);
	        this.working_directory = source["working_directory"];
	        this.tools = this.convertValues(source["tools"], ToolHealthView);
	        this.dismissed = source["dismissed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SyncResult {
	    pull_request: PullRequestView;
	    accepted: boolean;
	    renamed: string;
	    pushed: string;
	
	    static createFrom(source: any = {}) {
	        return new SyncResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pull_request = this.convertValues(source["pull_request"], PullRequestView);
	        this.accepted = source["accepted"];
	        this.renamed = source["renamed"];
	        this.pushed = source["pushed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TaskEvent {
	    // Go type: time
	    at: any;
	    kind: string;
	    data: any;
	
	    static createFrom(source: any = {}) {
	        return new TaskEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.at = this.convertValues(source["at"], null);
	        this.kind = source["kind"];
	        this.data = source["data"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TaskDetail {
	    id: string;
	    title: string;
	    prompt: string;
	    status: string;
	    priority: number;
	    skip: boolean;
	    labels: string[];
	    command: string;
	    runs: number;
	    completed_runs: number;
	    base: string;
	    repo: string;
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    updated_at: any;
	    // Go type: time
	    started_at?: any;
	    // Go type: time
	    finished_at?: any;
	    error?: string;
	    branch?: string;
	    prev_status?: string;
	    position: number;
	    questions: string[];
	    tools: {[key: string]: task.ToolChoice};
	    usage: task.Usage;
	    base_sha?: string;
	    head_sha?: string;
	    worktree_path?: string;
	    // Go type: time
	    not_before?: any;
	    on_limit?: string;
	    schedule_id?: string;
	    fix_runs: number;
	    run_start: task.RunStart;
	    origin_id?: string;
	    extra?: number[];
	    executor?: string;
	    command_text: string;
	    attachments: store.Attachment[];
	    usage_by_role: store.UsageRow[];
	    answers: string;
	    reports: Report[];
	    injections: Injection[];
	    events: TaskEvent[];
	    log: string;
	
	    static createFrom(source: any = {}) {
	        return new TaskDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.prompt = source["prompt"];
	        this.status = source["status"];
	        this.priority = source["priority"];
	        this.skip = source["skip"];
	        this.labels = source["labels"];
	        this.command = source["command"];
	        this.runs = source["runs"];
	        this.completed_runs = source["completed_runs"];
	        this.base = source["base"];
	        this.repo = source["repo"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.updated_at = this.convertValues(source["updated_at"], null);
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.finished_at = this.convertValues(source["finished_at"], null);
	        this.error = source["error"];
	        this.branch = source["branch"];
	        this.prev_status = source["prev_status"];
	        this.position = source["position"];
	        this.questions = source["questions"];
	        this.tools = this.convertValues(source["tools"], task.ToolChoice, true);
	        this.usage = this.convertValues(source["usage"], task.Usage);
	        this.base_sha = source["base_sha"];
	        this.head_sha = source["head_sha"];
	        this.worktree_path = source["worktree_path"];
	        this.not_before = this.convertValues(source["not_before"], null);
	        this.on_limit = source["on_limit"];
	        this.schedule_id = source["schedule_id"];
	        this.fix_runs = source["fix_runs"];
	        this.run_start = this.convertValues(source["run_start"], task.RunStart);
	        this.origin_id = source["origin_id"];
	        this.extra = source["extra"];
	        this.executor = source["executor"];
	        this.command_text = source["command_text"];
	        this.attachments = this.convertValues(source["attachments"], store.Attachment);
	        this.usage_by_role = this.convertValues(source["usage_by_role"], store.UsageRow);
	        this.answers = source["answers"];
	        this.reports = this.convertValues(source["reports"], Report);
	        this.injections = this.convertValues(source["injections"], Injection);
	        this.events = this.convertValues(source["events"], TaskEvent);
	        this.log = source["log"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class TaskUpdate {
	    title: string;
	    prompt: string;
	    labels: string[];
	    priority: number;
	    runs: number;
	    base: string;
	    command: string;
	    tools: {[key: string]: task.ToolChoice};
	
	    static createFrom(source: any = {}) {
	        return new TaskUpdate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.prompt = source["prompt"];
	        this.labels = source["labels"];
	        this.priority = source["priority"];
	        this.runs = source["runs"];
	        this.base = source["base"];
	        this.command = source["command"];
	        this.tools = this.convertValues(source["tools"], task.ToolChoice, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TokenResult {
	    kind: string;
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new TokenResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	    }
	}
	
	export class TranscriptPage {
	    data: string;
	    offset: number;
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new TranscriptPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.data = source["data"];
	        this.offset = source["offset"];
	        this.total = source["total"];
	    }
	}
	export class UIRequest {
	    seq: number;
	    view: string;
	    task_id?: string;
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new UIRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.view = source["view"];
	        this.task_id = source["task_id"];
	        this.message = source["message"];
	    }
	}
	export class UsageRange {
	    from: string;
	    to: string;
	
	    static createFrom(source: any = {}) {
	        return new UsageRange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	    }
	}
	export class UsageSummary {
	    by_day: store.UsageRow[];
	    by_tool: store.UsageRow[];
	    by_model: store.UsageRow[];
	    by_task: store.UsageRow[];
	    by_role: store.UsageRow[];
	
	    static createFrom(source: any = {}) {
	        return new UsageSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.by_day = this.convertValues(source["by_day"], store.UsageRow);
	        this.by_tool = this.convertValues(source["by_tool"], store.UsageRow);
	        this.by_model = this.convertValues(source["by_model"], store.UsageRow);
	        this.by_task = this.convertValues(source["by_task"], store.UsageRow);
	        this.by_role = this.convertValues(source["by_role"], store.UsageRow);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace budget {
	
	export class Line {
	    scope: string;
	    period: string;
	    tool?: string;
	    mode: string;
	    limit_usd?: number;
	    limit_tokens?: number;
	    spent_usd: number;
	    spent_tokens: number;
	    task_id?: string;
	    percent: number;
	    reached: boolean;
	    blocking: boolean;
	    over?: number;
	    // Go type: time
	    resets?: any;
	
	    static createFrom(source: any = {}) {
	        return new Line(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.period = source["period"];
	        this.tool = source["tool"];
	        this.mode = source["mode"];
	        this.limit_usd = source["limit_usd"];
	        this.limit_tokens = source["limit_tokens"];
	        this.spent_usd = source["spent_usd"];
	        this.spent_tokens = source["spent_tokens"];
	        this.task_id = source["task_id"];
	        this.percent = source["percent"];
	        this.reached = source["reached"];
	        this.blocking = source["blocking"];
	        this.over = source["over"];
	        this.resets = this.convertValues(source["resets"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Stopped {
	    id: string;
	    title: string;
	    reason: string;
	    held_by?: string;
	
	    static createFrom(source: any = {}) {
	        return new Stopped(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.reason = source["reason"];
	        this.held_by = source["held_by"];
	    }
	}
	export class Report {
	    // Go type: time
	    now: any;
	    location: string;
	    lines: Line[];
	    breakers: settings.Breakers;
	    stopped: Stopped[];
	    held: number;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.now = this.convertValues(source["now"], null);
	        this.location = source["location"];
	        this.lines = this.convertValues(source["lines"], Line);
	        this.breakers = this.convertValues(source["breakers"], settings.Breakers);
	        this.stopped = this.convertValues(source["stopped"], Stopped);
	        this.held = source["held"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace procstat {
	
	export class Stats {
	    processes: number;
	    rss_bytes: number;
	    cpu_seconds: number;
	
	    static createFrom(source: any = {}) {
	        return new Stats(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.processes = source["processes"];
	        this.rss_bytes = source["rss_bytes"];
	        this.cpu_seconds = source["cpu_seconds"];
	    }
	}

}

export namespace review {
	
	export class AcceptRecord {
	    strategy: string;
	    target: string;
	    old_sha: string;
	    new_sha: string;
	    task_head: string;
	    leftovers?: string;
	    checkout?: string;
	    // Go type: time
	    at: any;
	    only?: task.AcceptedFile[];
	
	    static createFrom(source: any = {}) {
	        return new AcceptRecord(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.strategy = source["strategy"];
	        this.target = source["target"];
	        this.old_sha = source["old_sha"];
	        this.new_sha = source["new_sha"];
	        this.task_head = source["task_head"];
	        this.leftovers = source["leftovers"];
	        this.checkout = source["checkout"];
	        this.at = this.convertValues(source["at"], null);
	        this.only = this.convertValues(source["only"], task.AcceptedFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Branch {
	    name: string;
	    sha: string;
	    unique: number;
	    worktree?: string;
	
	    static createFrom(source: any = {}) {
	        return new Branch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.sha = source["sha"];
	        this.unique = source["unique"];
	        this.worktree = source["worktree"];
	    }
	}
	export class Drop {
	    file: string;
	    hunk: string;
	    index?: number;
	    header?: string;
	
	    static createFrom(source: any = {}) {
	        return new Drop(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.hunk = source["hunk"];
	        this.index = source["index"];
	        this.header = source["header"];
	    }
	}
	export class Comment {
	    file: string;
	    line: number;
	    end_line?: number;
	    side?: string;
	    hunk: string;
	    text: string;
	    index?: number;
	    header?: string;
	
	    static createFrom(source: any = {}) {
	        return new Comment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.line = source["line"];
	        this.end_line = source["end_line"];
	        this.side = source["side"];
	        this.hunk = source["hunk"];
	        this.text = source["text"];
	        this.index = source["index"];
	        this.header = source["header"];
	    }
	}
	export class ChangeRequest {
	    general: string;
	    comments: Comment[];
	    drops: Drop[];
	
	    static createFrom(source: any = {}) {
	        return new ChangeRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.general = source["general"];
	        this.comments = this.convertValues(source["comments"], Comment);
	        this.drops = this.convertValues(source["drops"], Drop);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class CommitInfo {
	    sha: string;
	    subject: string;
	    author: string;
	    // Go type: time
	    date: any;
	
	    static createFrom(source: any = {}) {
	        return new CommitInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sha = source["sha"];
	        this.subject = source["subject"];
	        this.author = source["author"];
	        this.date = this.convertValues(source["date"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Viewed {
	    path: string;
	    hash: string;
	
	    static createFrom(source: any = {}) {
	        return new Viewed(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.hash = source["hash"];
	    }
	}
	export class Selection {
	    file: string;
	    hunks?: number[];
	
	    static createFrom(source: any = {}) {
	        return new Selection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.hunks = source["hunks"];
	    }
	}
	export class Draft {
	    head: string;
	    general: string;
	    comments: Comment[];
	    drops: Drop[];
	    chosen: Selection[];
	    viewed: Viewed[];
	    // Go type: time
	    updated_at: any;
	    moved: boolean;
	    unviewed: string[];
	
	    static createFrom(source: any = {}) {
	        return new Draft(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.head = source["head"];
	        this.general = source["general"];
	        this.comments = this.convertValues(source["comments"], Comment);
	        this.drops = this.convertValues(source["drops"], Drop);
	        this.chosen = this.convertValues(source["chosen"], Selection);
	        this.viewed = this.convertValues(source["viewed"], Viewed);
	        this.updated_at = this.convertValues(source["updated_at"], null);
	        this.moved = source["moved"];
	        this.unviewed = source["unviewed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class FileStat {
	    path: string;
	    old_path?: string;
	    change: string;
	    additions: number;
	    deletions: number;
	    binary: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FileStat(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.old_path = source["old_path"];
	        this.change = source["change"];
	        this.additions = source["additions"];
	        this.deletions = source["deletions"];
	        this.binary = source["binary"];
	    }
	}
	export class Outcome {
	    kind: string;
	    commits: number;
	    subset: boolean;
	    message?: string;
	    files: FileStat[];
	    additions: number;
	    deletions: number;
	
	    static createFrom(source: any = {}) {
	        return new Outcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.commits = source["commits"];
	        this.subset = source["subset"];
	        this.message = source["message"];
	        this.files = this.convertValues(source["files"], FileStat);
	        this.additions = source["additions"];
	        this.deletions = source["deletions"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Plan {
	    strategy: string;
	    target_ref: string;
	    target_sha: string;
	    task_ref: string;
	    task_head: string;
	    leftovers?: string;
	    head: string;
	    commits: string[];
	    tree?: string;
	    fast_forward: boolean;
	    checkout?: string;
	    dirty?: string[];
	    conflicts?: string[];
	    only?: task.AcceptedFile[];
	    makes?: Outcome;
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.strategy = source["strategy"];
	        this.target_ref = source["target_ref"];
	        this.target_sha = source["target_sha"];
	        this.task_ref = source["task_ref"];
	        this.task_head = source["task_head"];
	        this.leftovers = source["leftovers"];
	        this.head = source["head"];
	        this.commits = source["commits"];
	        this.tree = source["tree"];
	        this.fast_forward = source["fast_forward"];
	        this.checkout = source["checkout"];
	        this.dirty = source["dirty"];
	        this.conflicts = source["conflicts"];
	        this.only = this.convertValues(source["only"], task.AcceptedFile);
	        this.makes = this.convertValues(source["makes"], Outcome);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Queued {
	    request: number;
	    fix: number;
	    body: string;
	
	    static createFrom(source: any = {}) {
	        return new Queued(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.request = source["request"];
	        this.fix = source["fix"];
	        this.body = source["body"];
	    }
	}
	export class RejectRecord {
	    deleted: Branch[];
	    // Go type: time
	    at: any;
	
	    static createFrom(source: any = {}) {
	        return new RejectRecord(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.deleted = this.convertValues(source["deleted"], Branch);
	        this.at = this.convertValues(source["at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace settings {
	
	export class Breakers {
	    toolCalls: number;
	    repeatFailures: number;
	    noProgress: number;
	    tokensPerMinute: number;
	    velocityWindowMs: number;
	
	    static createFrom(source: any = {}) {
	        return new Breakers(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.toolCalls = source["toolCalls"];
	        this.repeatFailures = source["repeatFailures"];
	        this.noProgress = source["noProgress"];
	        this.tokensPerMinute = source["tokensPerMinute"];
	        this.velocityWindowMs = source["velocityWindowMs"];
	    }
	}

}

export namespace setup {
	
	export class Problem {
	    kind: string;
	    tool?: string;
	    path?: string;
	    message: string;
	    fix: string;
	    action: string;
	    commands?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.tool = source["tool"];
	        this.path = source["path"];
	        this.message = source["message"];
	        this.fix = source["fix"];
	        this.action = source["action"];
	        this.commands = source["commands"];
	    }
	}
	export class RepoCheck {
	    path: string;
	    usable: boolean;
	    git: boolean;
	    problem?: string;
	
	    static createFrom(source: any = {}) {
	        return new RepoCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.usable = source["usable"];
	        this.git = source["git"];
	        this.problem = source["problem"];
	    }
	}

}

export namespace store {
	
	export class Attachment {
	    name: string;
	    size: number;
	    sha256: string;
	    // Go type: time
	    added_at: any;
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.size = source["size"];
	        this.sha256 = source["sha256"];
	        this.added_at = this.convertValues(source["added_at"], null);
	        this.path = source["path"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UsageRow {
	    key: string;
	    executions: number;
	    tokens_in: number;
	    tokens_out: number;
	    cache_read: number;
	    cache_write: number;
	    cost_usd: number;
	
	    static createFrom(source: any = {}) {
	        return new UsageRow(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.executions = source["executions"];
	        this.tokens_in = source["tokens_in"];
	        this.tokens_out = source["tokens_out"];
	        this.cache_read = source["cache_read"];
	        this.cache_write = source["cache_write"];
	        this.cost_usd = source["cost_usd"];
	    }
	}

}

export namespace task {
	
	export class AcceptedFile {
	    file: string;
	    hunks?: number[];
	    headers?: string[];
	
	    static createFrom(source: any = {}) {
	        return new AcceptedFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.hunks = source["hunks"];
	        this.headers = source["headers"];
	    }
	}
	export class ToolChoice {
	    tool: string;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolChoice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.model = source["model"];
	    }
	}
	export class NewTask {
	    title: string;
	    prompt: string;
	    priority: number;
	    base: string;
	    labels: string[];
	    runs: number;
	    repo: string;
	    command: string;
	    draft: boolean;
	    tools: {[key: string]: ToolChoice};
	    verify?: string;
	    no_verify?: boolean;
	    // Go type: time
	    not_before?: any;
	    on_limit?: string;
	    executor?: string;
	
	    static createFrom(source: any = {}) {
	        return new NewTask(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.prompt = source["prompt"];
	        this.priority = source["priority"];
	        this.base = source["base"];
	        this.labels = source["labels"];
	        this.runs = source["runs"];
	        this.repo = source["repo"];
	        this.command = source["command"];
	        this.draft = source["draft"];
	        this.tools = this.convertValues(source["tools"], ToolChoice, true);
	        this.verify = source["verify"];
	        this.no_verify = source["no_verify"];
	        this.not_before = this.convertValues(source["not_before"], null);
	        this.on_limit = source["on_limit"];
	        this.executor = source["executor"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunStart {
	    from?: string;
	    resume?: boolean;
	    review?: number;
	    fix?: number;
	
	    static createFrom(source: any = {}) {
	        return new RunStart(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.resume = source["resume"];
	        this.review = source["review"];
	        this.fix = source["fix"];
	    }
	}
	export class ScheduleRun {
	    id: number;
	    schedule_id: string;
	    // Go type: time
	    at: any;
	    // Go type: time
	    due: any;
	    outcome: string;
	    task_id?: string;
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new ScheduleRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.schedule_id = source["schedule_id"];
	        this.at = this.convertValues(source["at"], null);
	        this.due = this.convertValues(source["due"], null);
	        this.outcome = source["outcome"];
	        this.task_id = source["task_id"];
	        this.note = source["note"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Usage {
	    tokens_in: number;
	    tokens_out: number;
	    cache_read: number;
	    cache_write: number;
	    cost_usd: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokens_in = source["tokens_in"];
	        this.tokens_out = source["tokens_out"];
	        this.cache_read = source["cache_read"];
	        this.cache_write = source["cache_write"];
	        this.cost_usd = source["cost_usd"];
	    }
	}
	export class Task {
	    id: string;
	    title: string;
	    prompt: string;
	    status: string;
	    priority: number;
	    skip: boolean;
	    labels: string[];
	    command: string;
	    runs: number;
	    completed_runs: number;
	    base: string;
	    repo: string;
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    updated_at: any;
	    // Go type: time
	    started_at?: any;
	    // Go type: time
	    finished_at?: any;
	    error?: string;
	    branch?: string;
	    prev_status?: string;
	    position: number;
	    questions: string[];
	    tools: {[key: string]: ToolChoice};
	    usage: Usage;
	    base_sha?: string;
	    head_sha?: string;
	    worktree_path?: string;
	    // Go type: time
	    not_before?: any;
	    on_limit?: string;
	    schedule_id?: string;
	    fix_runs: number;
	    run_start: RunStart;
	    origin_id?: string;
	    extra?: number[];
	    executor?: string;
	
	    static createFrom(source: any = {}) {
	        return new Task(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.prompt = source["prompt"];
	        this.status = source["status"];
	        this.priority = source["priority"];
	        this.skip = source["skip"];
	        this.labels = source["labels"];
	        this.command = source["command"];
	        this.runs = source["runs"];
	        this.completed_runs = source["completed_runs"];
	        this.base = source["base"];
	        this.repo = source["repo"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.updated_at = this.convertValues(source["updated_at"], null);
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.finished_at = this.convertValues(source["finished_at"], null);
	        this.error = source["error"];
	        this.branch = source["branch"];
	        this.prev_status = source["prev_status"];
	        this.position = source["position"];
	        this.questions = source["questions"];
	        this.tools = this.convertValues(source["tools"], ToolChoice, true);
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.base_sha = source["base_sha"];
	        this.head_sha = source["head_sha"];
	        this.worktree_path = source["worktree_path"];
	        this.not_before = this.convertValues(source["not_before"], null);
	        this.on_limit = source["on_limit"];
	        this.schedule_id = source["schedule_id"];
	        this.fix_runs = source["fix_runs"];
	        this.run_start = this.convertValues(source["run_start"], RunStart);
	        this.origin_id = source["origin_id"];
	        this.extra = source["extra"];
	        this.executor = source["executor"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace verify {
	
	export class Suggestion {
	    command: string;
	    because: string;
	
	    static createFrom(source: any = {}) {
	        return new Suggestion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.because = source["because"];
	    }
	}

}

export namespace worktree {
	
	export class DiffLine {
	    kind: string;
	    old: number;
	    new: number;
	    text: string;
	    no_newline?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new DiffLine(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.old = source["old"];
	        this.new = source["new"];
	        this.text = source["text"];
	        this.no_newline = source["no_newline"];
	    }
	}
	export class DiffHunk {
	    index: number;
	    header: string;
	    section: string;
	    old_start: number;
	    old_lines: number;
	    new_start: number;
	    new_lines: number;
	    count: number;
	    first_line: number;
	    lines: DiffLine[];
	
	    static createFrom(source: any = {}) {
	        return new DiffHunk(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.header = source["header"];
	        this.section = source["section"];
	        this.old_start = source["old_start"];
	        this.old_lines = source["old_lines"];
	        this.new_start = source["new_start"];
	        this.new_lines = source["new_lines"];
	        this.count = source["count"];
	        this.first_line = source["first_line"];
	        this.lines = this.convertValues(source["lines"], DiffLine);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}


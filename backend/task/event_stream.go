package task

// The payloads of the live events: the agent's stream as the pipeline
// forwards it, and the run's plain log notes. They are not stored as events
// (their text is in the log and the transcript).

// Note is the payload of EventNote: one line of the run's log.
type Note struct {
	Level LogLevel `json:"level"`
	Text  string   `json:"text"`
}

// AgentText is the payload of EventText.
type AgentText struct {
	Text string `json:"text"`
}

// ToolCall is the payload of EventToolCall.
type ToolCall struct {
	// Tool is the agent's tool ("Bash", "Edit").
	Tool string `json:"tool"`
	// CallID pairs the call with its ToolResult.
	CallID string `json:"call_id,omitempty"`
	// Input is the call's input as the agent wrote it.
	Input string `json:"input"`
}

// ToolResult is the payload of EventToolResult.
type ToolResult struct {
	CallID  string `json:"call_id,omitempty"`
	Output  string `json:"output"`
	IsError bool   `json:"is_error,omitempty"`
}

// ToolRetry is the payload of EventToolRetry.
type ToolRetry struct {
	Attempt     int   `json:"attempt"`
	MaxAttempts int   `json:"max_attempts"`
	DelayMs     int64 `json:"delay_ms,omitempty"`
	// ErrorStatus is the API's HTTP status, 0 when unknown.
	ErrorStatus int `json:"error_status,omitempty"`
	// Message is the tool's own notice, when it gives one.
	Message string `json:"message,omitempty"`
}

// AgentQuestion is the payload of EventQuestion.
type AgentQuestion struct {
	Text string `json:"text"`
}

// UsageReport is the payload of EventUsage.
type UsageReport struct {
	Usage Usage `json:"usage"`
}

// Kind returns EventNote.
func (Note) Kind() EventKind { return EventNote }

// MapText applies f to the note.
func (n Note) MapText(f func(string) string) EventData { n.Text = f(n.Text); return n }

// Kind returns EventText.
func (AgentText) Kind() EventKind { return EventText }

// MapText applies f to the text.
func (t AgentText) MapText(f func(string) string) EventData { t.Text = f(t.Text); return t }

// Kind returns EventToolCall.
func (ToolCall) Kind() EventKind { return EventToolCall }

// MapText applies f to the input.
func (c ToolCall) MapText(f func(string) string) EventData { c.Input = f(c.Input); return c }

// Kind returns EventToolResult.
func (ToolResult) Kind() EventKind { return EventToolResult }

// MapText applies f to the output.
func (r ToolResult) MapText(f func(string) string) EventData { r.Output = f(r.Output); return r }

// Kind returns EventToolRetry.
func (ToolRetry) Kind() EventKind { return EventToolRetry }

// MapText applies f to the message.
func (r ToolRetry) MapText(f func(string) string) EventData { r.Message = f(r.Message); return r }

// Kind returns EventQuestion.
func (AgentQuestion) Kind() EventKind { return EventQuestion }

// MapText applies f to the question.
func (q AgentQuestion) MapText(f func(string) string) EventData { q.Text = f(q.Text); return q }

// Kind returns EventUsage.
func (UsageReport) Kind() EventKind { return EventUsage }

package task

import "time"

// LogLevel is the level of a line of a task's execution log.
type LogLevel string

// The log levels.
const (
	LevelDebug LogLevel = "debug"
	LevelInfo  LogLevel = "info"
	LevelWarn  LogLevel = "warn"
	LevelError LogLevel = "error"
)

// Valid reports whether l is one of the levels above.
func (l LogLevel) Valid() bool {
	switch l {
	case LevelDebug, LevelInfo, LevelWarn, LevelError:
		return true
	}
	return false
}

// LogLine is one structured line of a task's execution log.
type LogLine struct {
	ID     int64     `json:"id"`
	TaskID string    `json:"task_id"`
	ExecID int64     `json:"exec_id,omitempty"`
	At     time.Time `json:"at"`
	Level  LogLevel  `json:"level"`
	Text   string    `json:"text"`
}

package task

import "time"

// Schedule is a recurring task: at each fire of its cron expression, in its
// time zone, a fresh task is queued from Template.
type Schedule struct {
	ID string `json:"id"`
	// Name is shown in lists; "" shows the template's title or prompt.
	Name string `json:"name"`
	// Cron is a standard five-field cron expression ("0 2 * * 1-5") or a
	// descriptor (@daily, @every 1h).
	Cron string `json:"cron"`
	// TZ is an IANA time zone name ("Europe/Berlin"); "UTC" when none.
	TZ string `json:"tz"`
	// Template is the task each fire queues.
	Template NewTask `json:"template"`
	// Paused schedules do not fire (and hold no runner slot, as no schedule does).
	Paused bool `json:"paused"`
	// NextFire is the next time it fires (nil while paused).
	NextFire *time.Time `json:"next_fire,omitempty"`
	// LastFire is the last time it fired or was due; LastTaskID the task
	// its last fire queued.
	LastFire   *time.Time `json:"last_fire,omitempty"`
	LastTaskID string     `json:"last_task_id,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
}

// DisplayName is the name, else the template's title, else its prompt's
// first line.
func (s Schedule) DisplayName() string {
	if s.Name != "" {
		return s.Name
	}
	return Task{Title: s.Template.Title, Prompt: s.Template.Prompt}.DisplayTitle()
}

// Fire outcomes of a ScheduleRun.
const (
	// FireQueued: the fire queued a task.
	FireQueued = "queued"
	// FireSkipped: the fire was skipped because the previous task still runs.
	FireSkipped = "skipped"
	// FireMissed: fires missed while the app was closed, not run (settings
	// schedules.runMissed off).
	FireMissed = "missed"
	// FireCaughtUp: fires missed while the app was closed, run once at start.
	FireCaughtUp = "caught_up"
)

// ScheduleRun is one entry of a schedule's log: a fire and what came of it.
type ScheduleRun struct {
	ID         int64     `json:"id"`
	ScheduleID string    `json:"schedule_id"`
	At         time.Time `json:"at"`
	// Due is the fire time this entry is for.
	Due time.Time `json:"due"`
	// Outcome is one of the Fire* constants.
	Outcome string `json:"outcome"`
	TaskID  string `json:"task_id,omitempty"`
	// Note says why ("the previous task 01j… is still ongoing", "3 fires missed").
	Note string `json:"note,omitempty"`
}

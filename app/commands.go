package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
)

// EventCommandsChanged says a command template changed.
const EventCommandsChanged = "commands:changed"

// CommandService is the CRUD of reusable instruction templates.
type CommandService struct {
	store *store.Store
	emit  Emitter
	ctx   func() context.Context
}

// NewCommandService builds the service.
func NewCommandService(s *store.Store, emit Emitter, ctx func() context.Context) *CommandService {
	return &CommandService{store: s, emit: emit, ctx: ctx}
}

// Command is a template as the UI sees it; its id is its name.
type Command struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Body      string    `json:"body"`
	UpdatedAt time.Time `json:"updated_at"`
}

// CommandInput creates (ID "") or renames/edits (ID = old name) a template.
type CommandInput struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Body string `json:"body"`
}

func toCommand(c store.Command) Command {
	return Command{ID: c.Name, Name: c.Name, Body: c.Text, UpdatedAt: c.UpdatedAt}
}

// List returns every template sorted by name.
func (s *CommandService) List() ([]Command, error) {
	cs, err := s.store.ListCommands(s.ctx())
	if err != nil {
		return nil, userError(err)
	}
	out := []Command{}
	for _, c := range cs {
		out = append(out, toCommand(c))
	}
	return out, nil
}

// Save creates or updates a template. Empty names or bodies and a new name
// that is already taken are refused.
func (s *CommandService) Save(in CommandInput) (Command, error) {
	ctx := s.ctx()
	name := strings.TrimSpace(in.Name)
	save := s.store.SaveCommand
	if name != in.ID {
		save = s.store.CreateCommand // a new name must be free
	}
	c, err := save(ctx, name, in.Body)
	if err != nil {
		return Command{}, userError(err)
	}
	if in.ID != "" && in.ID != name {
		if err := s.store.DeleteCommand(ctx, in.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return Command{}, userError(err)
		}
	}
	s.emit.Emit(EventCommandsChanged)
	return toCommand(c), nil
}

// Delete removes a template.
func (s *CommandService) Delete(id string) error {
	if err := s.store.DeleteCommand(s.ctx(), id); err != nil {
		return userError(err)
	}
	s.emit.Emit(EventCommandsChanged)
	return nil
}

package exectask

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// controlHandler serves the control endpoint of the task taskID.
func controlHandler(st *store.Store, taskID string, wake func()) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("POST /inject", func(w http.ResponseWriter, r *http.Request) {
		var req wire.InjectRequest
		if err := json.NewDecoder(io.LimitReader(r.Body, store.MaxInjection+4096)).Decode(&req); err != nil {
			http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
			return
		}
		added, err := st.SeedInjection(r.Context(), task.Injection{ID: req.ID, TaskID: taskID, Text: req.Text})
		if errors.Is(err, task.ErrInvalid) {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		wake()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(wire.InjectReply{Added: added})
	})
	mux.HandleFunc("POST /stop", func(w http.ResponseWriter, r *http.Request) {
		err := st.RequestStop(r.Context(), taskID)
		var se *store.StatusError
		if err != nil && !errors.As(err, &se) { // a task no longer ongoing is stopped already
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		wake()
		_, _ = io.WriteString(w, "ok\n")
	})
	return mux
}

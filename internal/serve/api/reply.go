package api

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"
)

// errorBody is every error answer: detail says what went wrong and what to do (the
// original's key, so its clients read it unchanged); field names the request field
// at fault, when one is.
type errorBody struct {
	Detail string `json:"detail"`
	Field  string `json:"field,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, detail string) {
	writeJSON(w, status, errorBody{Detail: detail})
}

// fieldError is a 400 about one field of a request body.
type fieldError struct {
	Field  string
	Detail string
}

func (e *fieldError) Error() string { return e.Detail }

// writeBodyError answers a body that could not be read: 413 past the limit, 400 with
// the field at fault otherwise.
func writeBodyError(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	var fe *fieldError
	var slow *BodyTimeoutError
	switch {
	case errors.As(err, &slow):
		writeError(w, http.StatusRequestTimeout, slow.Error())
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge,
			"the request body is larger than the server's limit of "+strconv.FormatInt(tooBig.Limit, 10)+
				" bytes (ALBERT_CODE_API_MODE_MAX_BODY): send less, or put large inputs in the workspace with PUT /files")
	case errors.As(err, &fe):
		writeJSON(w, http.StatusBadRequest, errorBody{Detail: fe.Detail, Field: fe.Field})
	default:
		writeError(w, http.StatusBadRequest, err.Error())
	}
}

// setRetryAfter sets Retry-After in whole seconds, at least one.
func setRetryAfter(w http.ResponseWriter, d time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Max(1, math.Ceil(d.Seconds())))))
}

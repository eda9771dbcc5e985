// The console's only script: it refreshes the parts of a page marked
// data-refresh, and streams a run's events on its page. Everything it writes
// goes through textContent, never innerHTML of event data; refreshed parts are
// HTML the server rendered and escaped.
"use strict";

function toLogin() {
  window.location.assign("/ui/login?why=expired");
}

function refresh(el) {
  var every = Number(el.dataset.every || 5) * 1000;
  var tick = function () {
    fetch(el.dataset.refresh, { headers: { "X-Console": "1" }, credentials: "same-origin" })
      .then(function (resp) {
        if (resp.status === 401) { toLogin(); return null; }
        return resp.ok ? resp.text() : null;
      })
      .then(function (html) {
        if (html !== null) { el.innerHTML = html; }
        window.setTimeout(tick, every);
      })
      .catch(function () { window.setTimeout(tick, every); });
  };
  window.setTimeout(tick, every);
}

function describe(ev) {
  var d = ev.data || {};
  switch (ev.type) {
    case "delta": case "reasoning": return d.text || "";
    case "tool_call": return (d.tool && d.tool.name || "") + " " + (d.tool && d.tool.arguments ? JSON.stringify(d.tool.arguments) : "");
    case "tool_result": return (d.tool && d.tool.name || "") + (d.tool && d.tool.is_error ? " (error) " : " ") + (d.tool && d.tool.output || "");
    case "usage": return d.usage ? d.usage.input_tokens + " in / " + d.usage.output_tokens + " out" : "";
    case "session": return d.session_id || "";
    case "stop": return (d.stop_reason || "") + (d.exit_code !== undefined ? " exit " + d.exit_code : "");
    default: return d.text || "";
  }
}

function streamRun(run) {
  var list = document.getElementById("events");
  var live = document.getElementById("live");
  var state = document.getElementById("stream-state");
  var source = new EventSource("/ui/runs/" + encodeURIComponent(run.dataset.id) + "/events");
  source.addEventListener("run", function (msg) {
    var ev = JSON.parse(msg.data);
    if (ev.type === "delta") { live.textContent += (ev.data && ev.data.text) || ""; }
    var item = document.createElement("li");
    item.className = "event " + ev.type;
    var type = document.createElement("span");
    type.className = "type";
    type.textContent = ev.type;
    item.appendChild(type);
    item.appendChild(document.createTextNode(describe(ev)));
    list.appendChild(item);
  });
  source.addEventListener("end", function (msg) {
    source.close();
    var status = JSON.parse(msg.data);
    state.textContent = "The run ended: " + status + ".";
    var badge = document.getElementById("status");
    if (run.dataset.final !== "true") {
      badge.textContent = status;
      badge.className = "badge " + status;
      // The answer, the usage and the errors are read once the run is recorded.
      window.setTimeout(function () { window.location.reload(); }, 300);
    }
  });
  source.addEventListener("failure", function (msg) {
    source.close();
    state.textContent = JSON.parse(msg.data);
  });
  source.onerror = function () {
    if (source.readyState === EventSource.CLOSED) { state.textContent = "The event stream closed."; }
  };
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("[data-refresh]").forEach(refresh);
  var run = document.getElementById("run");
  if (run) { streamRun(run); }
});

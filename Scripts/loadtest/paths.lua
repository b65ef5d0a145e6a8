-- wrk script: each request takes the next path of a list (PATHS file), threads interleaved,
-- so that with a list longer than the run every request is new (cold) and with a short list
-- requests repeat (warm). Prints one JSON line with the results at the end.
local paths = {}
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
  step = tonumber(os.getenv("THREADS") or "1")
  index = id - step
end

function request()
  index = index + step
  local path = paths[((index - 1) % #paths) + 1]
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local errors = summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.2f, "p99_ms": %.2f, "errors": %d, "status_errors": %d, "timeouts": %d}\n',
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, errors, summary.errors.status, summary.errors.timeout))
end

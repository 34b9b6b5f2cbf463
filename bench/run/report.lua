-- wrk script: method and body from files named in the environment, and a JSON summary with the
-- percentiles wrk's own --latency output lacks (p95).
local method = os.getenv("BENCH_METHOD")
if method and method ~= "" then wrk.method = method end
local body_path = os.getenv("BENCH_BODY")
if body_path and body_path ~= "" then
  local file = assert(io.open(body_path, "rb"))
  wrk.body = file:read("*a")
  file:close()
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "bytes": %d, "non_2xx": %d, "connect": %d, '
      .. '"read": %d, "write": %d, "timeout": %d, "p50_us": %d, "p95_us": %d, "p99_us": %d, '
      .. '"max_us": %d, "mean_us": %.1f}\n',
    summary.requests, summary.duration, summary.bytes, errors.status, errors.connect,
    errors.read, errors.write, errors.timeout, latency:percentile(50), latency:percentile(95),
    latency:percentile(99), latency.max, latency.mean))
end

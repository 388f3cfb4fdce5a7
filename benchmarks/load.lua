-- wrk script for benchmarks/server.py and scale.py. MODE (environment): hello, insert,
-- anonymous, login, refresh, invite or register. TOKENS: a file of refresh tokens
-- (refresh) or invite codes (invite), shared out among the threads; ACCESS: the access
-- token that redeems the invites. Each thread counts answers by class; done() prints
-- one JSON line.
local mode = os.getenv("MODE") or "hello"
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

local json = '{"flow":"oklah"}'
local tokens = {}
local sequence = 0

function init(args)
  ok, client_error, server_error = 0, 0, 0
  wrk.headers["Content-Type"] = "application/json"
  if mode == "refresh" or mode == "invite" then
    -- This thread's share of fresh refresh tokens (each answer hands back the next) or
    -- of unused invite codes.
    local file = io.open(os.getenv("TOKENS"))
    local index, share, count = 0, tonumber(os.getenv("SHARE")), tonumber(os.getenv("THREADS"))
    for line in file:lines() do
      if index % count == id - 1 and #tokens < share then table.insert(tokens, line) end
      index = index + 1
    end
    file:close()
  end
end

function request()
  if mode == "hello" then
    return wrk.format("GET", "/hello")
  elseif mode == "insert" then
    return wrk.format("POST", "/insert")
  elseif mode == "invite" then
    local code = table.remove(tokens, 1) or "exhausted"
    return wrk.format("POST", "/api/v1/invites/accept", {["Authorization"] = "Bearer " .. os.getenv("ACCESS"), ["Content-Type"] = "application/json"}, '{"code":"' .. code .. '"}')
  elseif mode == "anonymous" then
    return wrk.format("POST", "/api/v1/auth/anonymous", nil, json)
  elseif mode == "login" then
    return wrk.format("POST", "/api/v1/auth/login", nil, '{"flow":"babybasics","email":"bench@example.org","password":"long enough"}')
  elseif mode == "register" then
    sequence = sequence + 1
    return wrk.format("POST", "/api/v1/auth/register", nil,
      string.format('{"flow":"babybasics","name":"Bench","email":"bench-%d-%d@example.org","password":"long enough"}', id, sequence))
  else
    local token = table.remove(tokens, 1) or "exhausted"
    return wrk.format("POST", "/api/v1/auth/refresh", nil, '{"refresh_token":"' .. token .. '"}')
  end
end

function response(status, headers, body)
  if status < 300 then ok = ok + 1 elseif status < 500 then client_error = client_error + 1 else server_error = server_error + 1 end
  if mode == "refresh" and status < 300 then
    local token = string.match(body, '"refresh_token":"([^"]+)"')
    if token then table.insert(tokens, token) end
  end
end

function done(summary, latency, requests)
  local ok_total, client_total, server_total = 0, 0, 0
  for _, thread in ipairs(threads) do
    ok_total = ok_total + thread:get("ok")
    client_total = client_total + thread:get("client_error")
    server_total = server_total + thread:get("server_error")
  end
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"ok":%d,"client_errors":%d,"server_errors":%d,"socket_errors":%d,"p50_ms":%.3f,"p99_ms":%.3f}\n',
    summary.requests, summary.duration / 1e6, ok_total, client_total, server_total,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end

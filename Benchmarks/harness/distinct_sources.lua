-- wrk script for bench_serve.py --distinct: each request asks for the next of BENCH_DISTINCT
-- copies of the source (BENCH_PATH with "{i}" for the copy's number), the two wrk threads
-- half-way apart, so no two requests in flight are for the same result: a server that joins
-- identical requests in flight renders every one.
local count = tonumber(os.getenv("BENCH_DISTINCT"))
local threads = 0
function setup(thread)
  thread:set("offset", threads * math.floor(count / 2))
  threads = threads + 1
end
local template = os.getenv("BENCH_PATH")
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", (template:gsub("{i}", tostring((counter + offset) % count))))
end

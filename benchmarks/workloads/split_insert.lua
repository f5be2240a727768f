-- Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
--
-- Split-heavy inserts for sysbench 1.0 (benchmarks/README.md).
--   prepare: `rows` rows of `pad` bytes with keys 0, gap, 2*gap, ... inserted
--            in key order, so that leaf pages are nearly full;
--   run:     every event inserts one key between two preloaded ones.  Keys
--            are unique across threads and spread evenly over the table:
--            event number u goes to gap (u * 7919) % rows, offset u / rows + 1,
--            so the first `rows` events hit every gap once, in scattered order.

sysbench.cmdline.options = {
  rows = {"Rows preloaded by prepare", 20000},
  gap = {"Key distance between preloaded rows", 1000},
  pad = {"Bytes of payload per row", 2500},
  table_name = {"Table", "split_t"},
}

local function connect()
  return sysbench.sql.driver():connect()
end

function prepare()
  local o = sysbench.opt
  assert(o.rows % 7919 ~= 0, "rows must not be a multiple of 7919")
  local con = connect()
  con:query(string.format(
    "CREATE TABLE %s (id BIGINT UNSIGNED NOT NULL PRIMARY KEY, pad VARCHAR(%d) NOT NULL)" ..
    " ENGINE=InnoDB", o.table_name, o.pad))
  local batch = 50
  for first = 0, o.rows - 1, batch do
    local values = {}
    for i = first, math.min(first + batch, o.rows) - 1 do
      values[#values + 1] = string.format("(%d, REPEAT('p', %d))", i * o.gap, o.pad)
    end
    con:query(string.format("INSERT INTO %s (id, pad) VALUES %s", o.table_name,
                            table.concat(values, ",")))
  end
end

function cleanup()
  connect():query("DROP TABLE IF EXISTS " .. sysbench.opt.table_name)
end

function thread_init()
  con = connect()
  n_events = 0
end

function event()
  local o = sysbench.opt
  local u = n_events * o.threads + sysbench.tid
  n_events = n_events + 1
  local offset = 1 + math.floor(u / o.rows)
  if offset >= o.gap then
    error("more inserts than free keys: raise --gap")
  end
  local key = ((u * 7919) % o.rows) * o.gap + offset
  con:query(string.format("INSERT INTO %s (id, pad) VALUES (%d, REPEAT('i', %d))",
                          o.table_name, key, o.pad))
end

function thread_done()
  con:disconnect()
end

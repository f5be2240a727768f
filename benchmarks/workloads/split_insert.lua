-- Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
--
-- Split-heavy inserts for sysbench 1.0 (benchmarks/README.md).
--   prepare: `rows` rows of `pad` bytes with keys 0, gap, 2*gap, ... inserted
--            in key order, so that leaf pages are nearly full;
--   run:     every event inserts one key between two preloaded ones.  Keys
--            are unique across threads and spread evenly over the table:
--            event number u goes to gap (u * 7919) % rows, offset u / rows + 1,
--            so the first `rows` events hit every gap once, in scattered order.
--            With --readers, odd-numbered threads read instead: ten keys from
--            a random gap on (two or three leaves), across the leaves the
--            inserts split; with --read_only too, every thread reads (the
--            readers of a run of their own beside the writers').

sysbench.cmdline.options = {
  rows = {"Rows preloaded by prepare", 20000},
  gap = {"Key distance between preloaded rows", 1000},
  pad = {"Bytes of payload per row", 2500},
  table_name = {"Table", "split_t"},
  readers = {"Odd-numbered threads read short key ranges instead of inserting", false},
  read_only = {"With --readers: every thread reads", false},
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
  if o.readers and (o.read_only or sysbench.tid % 2 == 1) then
    -- The upper bound keeps the optimizer's row estimate at the range's
    -- few rows: with `id >= k` alone it estimates the rest of the table,
    -- and the server's record buffer (set_record_buffer(), a tenth of the
    -- estimate up to 128 KB of ids) then has InnoDB fetch thousands of
    -- rows ahead for a LIMIT 10.
    local first = sysbench.rand.uniform(0, o.rows - 1) * o.gap
    con:query(string.format("SELECT id FROM %s WHERE id >= %d AND id < %d ORDER BY id LIMIT 10",
                            o.table_name, first, first + 10 * o.gap))
    return
  end
  -- Writers are numbered 0, 1, ... among themselves, so that they share
  -- the key sequence as all threads do without readers.
  local writers, writer = o.threads, sysbench.tid
  if o.readers then
    writers, writer = math.ceil(o.threads / 2), math.floor(sysbench.tid / 2)
  end
  local u = n_events * writers + writer
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

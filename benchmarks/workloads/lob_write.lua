-- Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
--
-- Writes of rows with a TEXT value stored off the page, for sysbench 1.0
-- (benchmarks/README.md, lob-write; storage/innobase/btr/README.blink.md,
-- EX1-EX4).
--   prepare: `rows` rows with ids 1 .. rows in key order, the value NULL;
--   run:     every event is one autocommit statement of a random kind:
--            half are updates that give a random preloaded row a value of
--            min_len .. max_len bytes (an update that stores a value off the
--            page, and frees none: the old one stays for purge), a quarter
--            inserts of new rows with such a value at ids above the
--            preloaded ones, unique across threads, and a quarter deletes
--            of a random preloaded row (purge frees its value, if it had
--            one).  With --readers, odd-numbered threads read instead: the
--            row of a random id, without its value; with --read_only too,
--            every thread reads (the readers of a run of their own beside
--            the writers').

sysbench.cmdline.options = {
  rows = {"Rows preloaded by prepare", 20000},
  min_len = {"Shortest value written, in bytes", 20000},
  max_len = {"Longest value written, in bytes", 100000},
  table_name = {"Table", "lob_t"},
  readers = {"Odd-numbered threads read single rows instead of writing", false},
  read_only = {"With --readers: every thread reads", false},
}

local function connect()
  return sysbench.sql.driver():connect()
end

function prepare()
  local o = sysbench.opt
  local con = connect()
  con:query(string.format(
    "CREATE TABLE %s (id BIGINT UNSIGNED NOT NULL PRIMARY KEY, k INT UNSIGNED NOT NULL," ..
    " t MEDIUMTEXT NULL, KEY k (k)) ENGINE=InnoDB", o.table_name))
  local batch = 500
  for first = 1, o.rows, batch do
    local values = {}
    for i = first, math.min(first + batch - 1, o.rows) do
      values[#values + 1] = string.format("(%d, %d, NULL)", i, (i * 7919) % o.rows)
    end
    con:query(string.format("INSERT INTO %s (id, k, t) VALUES %s", o.table_name,
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
    con:query(string.format("SELECT id, k FROM %s WHERE id = %d", o.table_name,
                            sysbench.rand.uniform(1, o.rows)))
    return
  end
  local writers, writer = o.threads, sysbench.tid
  if o.readers then
    writers, writer = math.ceil(o.threads / 2), math.floor(sysbench.tid / 2)
  end
  local len = sysbench.rand.uniform(o.min_len, o.max_len)
  local kind = sysbench.rand.uniform(1, 4)
  if kind <= 2 then
    con:query(string.format("UPDATE %s SET t = REPEAT('u', %d) WHERE id = %d", o.table_name,
                            len, sysbench.rand.uniform(1, o.rows)))
  elseif kind == 3 then
    local id = o.rows + 1 + n_events * writers + writer
    con:query(string.format("INSERT INTO %s (id, k, t) VALUES (%d, %d, REPEAT('i', %d))",
                            o.table_name, id, id % o.rows, len))
  else
    con:query(string.format("DELETE FROM %s WHERE id = %d", o.table_name,
                            sysbench.rand.uniform(1, o.rows)))
  end
  n_events = n_events + 1
end

function thread_done()
  con:disconnect()
end

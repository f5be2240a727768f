-- Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
--
-- Deletes and inserts on the io data set (benchmarks/README.md,
-- purge-heavy-io), for sysbench 1.0: every event is a transaction that
-- deletes `delete_rows` neighbouring preloaded rows from a random place of
-- a random table and inserts as many rows at random ids, so that purge
-- empties and merges leaves while the inserts split others, both all over
-- tables larger than the buffer pool.  The preloaded ids are spread over
-- the INTEGER range as innobench/workloads.py io_rows_sql() spreads them.

sysbench.cmdline.options = {
  tables = {"Number of tables", 1},
  table_size = {"Rows preloaded per table", 10000},
  delete_rows = {"Neighbouring rows deleted, and rows inserted, per event", 10},
}

local c_template = "###########-###########-###########-###########-###########-" ..
                   "###########-###########-###########-###########-###########"
local pad_template = "###########-###########-###########-###########-###########"

function thread_init()
  con = sysbench.sql.driver():connect()
  stride = math.floor(4294967296 / sysbench.opt.table_size)
end

function event()
  local o = sysbench.opt
  local t = sysbench.rand.uniform(1, o.tables)
  local first = -2147483648 + math.floor(stride / 2) +
                sysbench.rand.uniform(0, o.table_size - 1) * stride
  local values = {}
  for j = 1, o.delete_rows do
    values[j] = string.format("(%d, %d, '%s', '%s')", sysbench.rand.unique() - 2147483648,
                              sysbench.rand.default(1, o.table_size),
                              sysbench.rand.string(c_template),
                              sysbench.rand.string(pad_template))
  end
  con:query("BEGIN")
  con:query(string.format("DELETE FROM sbtest%d WHERE id >= %d AND id < %d", t, first,
                          first + o.delete_rows * stride))
  con:query(string.format("INSERT INTO sbtest%d (id, k, c, pad) VALUES %s", t,
                          table.concat(values, ",")))
  con:query("COMMIT")
end

function thread_done()
  con:disconnect()
end

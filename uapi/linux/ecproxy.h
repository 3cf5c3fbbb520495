/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * ecproxy: in-network erasure-code reconstruction, generic netlink ABI.
 *
 * The family is "ecproxy" (ECPROXY_GENL_NAME), version ECPROXY_GENL_VERSION.
 * Opening it autoloads the module.  Every command is per network namespace:
 * it acts on the namespace of the socket that sends it, and needs
 * CAP_NET_ADMIN in the user namespace owning that network namespace
 * (GENL_UNS_ADMIN_PERM), reads included: task configuration names hosts
 * and ports that are not everybody's business.  Without it the kernel
 * answers -EPERM.
 *
 * Validation is strict: unknown attributes, attributes of the wrong size,
 * ECPROXY_A_TASK_SOURCES without NLA_F_NESTED, and a non-zero
 * genlmsghdr.reserved are all rejected with -EINVAL or -ERANGE.  Every error carries an
 * extended-ack message (set NETLINK_EXT_ACK on the socket); errors found
 * by an attribute policy also carry NLMSGERR_ATTR_OFFS, the offset of the
 * offending attribute in the request, and NLMSGERR_ATTR_POLICY, its valid
 * range.  Errors about one source name its position in
 * ECPROXY_A_TASK_SOURCES counting from 0, as in "source 3: ...".
 *
 * Integers are in host byte order, addresses in network byte order.  An
 * address attribute holds 4 bytes (IPv4) or 16 bytes (IPv6); its length
 * chooses the family, and all addresses of one task must have the same
 * family.  This version accepts IPv4 only and answers -EAFNOSUPPORT to
 * 16-byte addresses; the layout is ready for IPv6.
 *
 * ECPROXY_CMD_GET_INFO
 * --------------------
 *
 * Takes no attributes.  Answers with one message holding:
 *
 *    ECPROXY_A_INFO_VERSION: NLA_NUL_STRING, the module version
 *    ECPROXY_A_INFO_GF_IMPL: NLA_NUL_STRING, the name of the GF(2^8)
 *                            implementation the data path uses
 *    ECPROXY_A_INFO_GF_AVAIL: NLA_NESTED, one ECPROXY_A_INFO_GF_IMPL
 *                            string per implementation this CPU can run
 *
 * ECPROXY_CMD_TASK_ADD
 * --------------------
 *
 * Adds one coding task to the namespace.  A task reads k sources, each once
 * over one connection, and computes one or more rows: row r is the
 * GF(2^8) sum of the sources' streams, source j's multiplied by the row's
 * coefficient j.  Its MODE says where the rows go:
 *
 *    ECPROXY_MODE_PULL: a client connecting to the service endpoint
 *                       VIP:port gets the one row (a lost fragment).
 *    ECPROXY_MODE_READ: a client connecting to VIP:port gets the block in
 *                       logical order: row f is data fragment f (k rows),
 *                       interleaved cell by cell as BLOCK and CELL say.
 *    ECPROXY_MODE_DEST: TASK_START makes the module connect from the VIP
 *                       to one target per row and send it the row, then
 *                       FIN; no client, no port.
 *    ECPROXY_MODE_WRITE: a writer connecting to VIP:port sends a block and
 *                       shuts its side down; S connects from the VIP to
 *                       one target per row and sends row f, fragment f
 *                       of the block in CELL's striped layout: the data
 *                       fragments (rows 0..k-1, unit coefficients) and
 *                       the parity.  No SOURCES: the k inputs are the
 *                       writer's data fragments, and k is the length of
 *                       the rows' COEFS.  S acknowledges the writer's
 *                       FIN, and closes towards it, only once every
 *                       target has acknowledged its fragment and FIN.
 *
 * Attributes (ECPROXY_A_TASK_*):
 *
 *    ID: NLA_U32, 1..2^32-1, required.  Unique in the namespace.
 *    VIP: NLA_BINARY, 4 or 16 bytes, required.  The virtual IP: a local
 *         address of the namespace (on an interface, or in a local
 *         route), since the module takes what reaches VIP:port before
 *         the stack does.
 *    PORT: NLA_U16, 1..65535, required but for DEST (which serves no
 *          port).  The service port on the VIP.  VIP:port is unique in
 *          the namespace.
 *    MODE: NLA_U8, enum ecproxy_task_mode, optional, default PULL.
 *    CLIENT: NLA_BINARY, 4 or 16 bytes, optional.  Only clients in
 *            CLIENT/CLIENT_PREFIX may use the task; default: any client.
 *    CLIENT_PREFIX: NLA_U8, 0..32 (IPv4) or 0..128 (IPv6), optional,
 *                   only with CLIENT; default: a host (32 or 128).  CLIENT
 *                   must have no bits set beyond the prefix.  Prefix 0
 *                   means any client, as if CLIENT were absent.
 *    SOURCES: NLA_NESTED, required, refused for WRITE.  An array of 1..32
 *             (ECPROXY_MAX_K) nests, one per source, in order; the type
 *             of each entry is not interpreted (tools use its index).
 *             Each entry holds
 *             ECPROXY_A_SOURCE_*:
 *
 *        ADDR: NLA_BINARY, 4 or 16 bytes, required.  The source server.
 *        PORT: NLA_U16, 1..65535, required.
 *        COEF: NLA_U8, 1..255, required without ROWS, refused with them.
 *              The GF(2^8) coefficient (polynomial 0x11d) applied to
 *              this source's bytes: the PULL task's one row.
 *        FRAG: NLA_U8, optional; required with BLOCK.  Which fragment of
 *              the stripe the source holds: with a layout it gives the
 *              source's exact length, otherwise it is only echoed back.
 *        SPARE: NLA_FLAG, optional, PULL and DEST without BLOCK only,
 *               on the last 1..ECPROXY_MAX_SPARES (4) entries only, after
 *               at least one other.  The source is a spare: one more
 *               surviving fragment, read with the others so that the
 *               output need not wait for the slowest.  It feeds no row
 *               (PULL: no COEF; ROWS: its coefficient must be 0).  With
 *               s spares, the rows are complete at an offset once all
 *               sources but s have given it: S keeps a check ring per
 *               spare t, sum(CHECK_i[t] x_i) + x_spare_t, which is zero
 *               where all are in; where sources J are missing, the rings
 *               of |J| spares that are in give their bytes, and S adds
 *               them to every row.  Bytes a missing source sends later
 *               are acknowledged and dropped, and once every output has
 *               all its bytes, a source still sending gets a RST.  The
 *               output's length is known once all sources but s have
 *               closed at it.
 *        CHECK: NLA_BINARY, one byte per spare, each 1..255, required on
 *               every other source when spares are given, refused
 *               otherwise.  Byte t: the source's coefficient in spare t's
 *               fragment, x_spare_t = sum(CHECK_i[t] x_i), the decode
 *               coefficients of that fragment from the others' (every one
 *               non-zero for an MDS code).  A set of missing sources that
 *               these coefficients cannot solve for (a code that is not
 *               MDS) is waited for, as without spares.
 *
 *             Two sources with the same ADDR and PORT are rejected.
 *    ROWS: NLA_NESTED, optional for PULL (one row; without it the
 *          sources' COEFs make it), required otherwise: 1..32 rows for
 *          DEST, exactly k for READ, k+1..32 for WRITE (row f is
 *          fragment f, rows 0..k-1 with unit coefficients: the data
 *          fragments).  An array of nests like SOURCES,
 *          each holding ECPROXY_A_ROW_*:
 *
 *        COEFS: NLA_BINARY, exactly k bytes, required.  Coefficient j
 *               applies to source j; 0 leaves the source out of the row.
 *               Every row must use a source, and every source but a
 *               spare feed a row.
 *        FRAG: NLA_U8, optional; required with BLOCK.  The fragment the
 *              row rebuilds.  READ's row f must be data fragment f.
 *        ADDR: NLA_BINARY, 4 or 16 bytes; DEST and WRITE only, required
 *              there.  The target the row is sent to.
 *        PORT: NLA_U16, 1..65535; DEST and WRITE only, required there.
 *
 *             Two targets with the same ADDR and PORT are rejected.
 *    BLOCK: NLA_U64, >= 1, and CELL: NLA_U32, 1..ECPROXY_CELL_MAX (64 MiB):
 *           both or neither; required for READ; for WRITE, CELL alone
 *           (the writer's stream is the block).  The layout of an
 *           HDFS-style striped block group of BLOCK bytes in cells of
 *           CELL bytes over k data fragments: byte X of the block is in
 *           data fragment (X / CELL) mod k at offset (X / (CELL k)) CELL +
 *           X mod CELL; data fragments are not padded; parity fragments
 *           are as long as data fragment 0, computed with the missing
 *           bytes of shorter data fragments taken as zero.  With it every
 *           source and row has an exact length (echoed as LENGTH): a
 *           source that closes there counts as zeros beyond it, one that
 *           closes anywhere else fails the connection
 *           (ECPROXY_ERR_LENGTH_MISMATCH).  Without it every source must
 *           close at the same length, but one that closes short is one
 *           the spares stand in for (SOURCE_SPARE).
 *    RATE: NLA_U64, bytes/s, optional, default 0 (no cap).  Caps what the
 *          task sends, over all its outputs together (a token bucket of
 *          a 50 ms burst, at least 64 KiB); the sources follow through
 *          the windows S offers them.
 *    BUFFER_SIZE: NLA_U32, 4096..67108864 (4 KiB..64 MiB), optional,
 *                 default 1048576.  The decode buffer of each row,
 *                 exposed to senders by window rewriting: no source may
 *                 run more than this far ahead of what the row's output
 *                 has acknowledged.  The kernel allocates one per row
 *                 (and one more for each spare's check ring) when the
 *                 task is added, each with headroom
 *                 (BUFFER_SIZE / 8, at least 64 KiB) for bytes senders
 *                 had in flight when the window shrank.
 *    HANDSHAKE_TIMEOUT: NLA_U32 ms, 100..600000, optional, default 3000.
 *                       All sources must complete their handshake within
 *                       it or the client's connection is reset.
 *    IDLE_TIMEOUT: NLA_U32 ms, 1000..86400000, optional, default 60000.
 *                  A connection is reset and its state freed when the
 *                  stream waits on a side that sent nothing for this
 *                  long: the client with bytes unacknowledged
 *                  (ECPROXY_ERR_CLIENT_TIMEOUT), or the source whose bytes
 *                  are the next ones missing while the client and the
 *                  buffer have room (ECPROXY_ERR_SOURCE_TIMEOUT, naming
 *                  it); or when no side sent anything for this long
 *                  (ECPROXY_ERR_IDLE_TIMEOUT).
 *    LINGER_TIMEOUT: NLA_U32 ms, 0..60000, optional, default 1000.  How
 *                    long a closed connection's state is kept to absorb
 *                    retransmitted FINs and ACKs.
 *
 * Errors: -EEXIST if the ID or VIP:port is taken in this namespace;
 * -EINVAL for a missing attribute, a wrong number of sources, a duplicate
 * source, mixed address families, or host bits set in CLIENT; -ERANGE for
 * values outside their range; -EAFNOSUPPORT for IPv6; -EADDRNOTAVAIL when
 * the VIP is not a local address; -EADDRINUSE when VIP:port is the
 * module's own end of a live connection to a source (a port of
 * net.ipv4.ip_local_port_range); -ENOSPC when the buffers would exceed the
 * namespace's memory cap (module parameter netns_mem_max, bytes, counting
 * BUFFER_SIZE plus headroom of every ring of every task); -ENOMEM.  Answers with an ack
 * only, and sends an ECPROXY_EVENT_TASK_ADDED event.
 *
 * The namespace's first task registers the module's netfilter hook there
 * (with IPv4 defragmentation), and its last task's deletion removes it:
 * a namespace without tasks pays nothing per packet.
 *
 * ECPROXY_CMD_TASK_START
 * ----------------------
 *
 * Takes ECPROXY_A_TASK_ID (required) and starts a run of that DEST task:
 * SYNs to every source and target at once.  The run ends with
 * ECPROXY_EVENT_TASK_COMPLETED once every target has acknowledged its
 * row and the FIN, or with ECPROXY_EVENT_TASK_FAILED (ERROR, and the
 * source or target at fault); a target not fully served then gets a RST,
 * never a FIN.  A task can be started again once a run has ended.
 * -ENOENT if there is no such task; -EINVAL if it is not a DEST task;
 * -EBUSY while a run is under way; -EHOSTUNREACH if S has no route to a source or target;
 * -EADDRNOTAVAIL if no local port is free; -ENOMEM.  Answers with an ack
 * only, and sends an ECPROXY_EVENT_TASK_STARTED event.
 *
 * ECPROXY_CMD_TASK_DEL
 * --------------------
 *
 * Takes ECPROXY_A_TASK_ID (required) and deletes that task, resetting its
 * connection if one is open, and releasing its memory.  -ENOENT if there is
 * no such task.  Answers with an ack only, and sends an
 * ECPROXY_EVENT_TASK_DELETED event.
 *
 * ECPROXY_CMD_TASK_GET
 * --------------------
 *
 * As a do request, takes ECPROXY_A_TASK_ID (required) and answers with one
 * message describing that task, or -ENOENT.  As a dump request
 * (NLM_F_DUMP), takes no attributes and answers with one message per task
 * in the namespace, by increasing ID.  If tasks were added or deleted
 * while a dump was under way, the message where that was noticed carries
 * NLM_F_DUMP_INTR; retry the dump to get a consistent list.  Each message
 * holds the ECPROXY_A_TASK_* attributes given to TASK_ADD (with the
 * defaults filled in, CLIENT and FRAG only when they were given, MODE,
 * RATE and ROWS always, COEF only for PULL, PORT 0 for DEST), plus:
 *
 *    STATE: NLA_U8, enum ecproxy_task_state: whether a connection (or a
 *           run) is under way.
 *    MEM: NLA_U64, bytes reserved for the task's buffers.
 *    STATS: NLA_NESTED, ECPROXY_A_STATS_* (below) for this task.
 *
 * and in each SOURCES entry, besides ADDR, PORT, COEF, FRAG, SPARE and
 * CHECK:
 *
 *    LENGTH: NLA_U64, its exact length, with a layout only.
 *    STATE: NLA_U8, enum ecproxy_source_state of its connection.
 *    BYTES_IN: NLA_U64, payload bytes of this source applied to the
 *              decode buffer, each once (repeats are in DUP_BYTES).
 *    SEGS_IN: NLA_U64, segments with payload received from this source.
 *    DUP_BYTES: NLA_U64, bytes this source sent again that had already
 *               been applied, and were skipped.
 *    LOST: NLA_U64, with spares only: connections in which a spare stood
 *          in for this source (the task's SOURCES_LOST, per source; its
 *          STATE goes back to IDLE with the connection).
 *
 * and in each ROWS entry, besides COEFS, FRAG, ADDR and PORT:
 *
 *    LENGTH: NLA_U64, its exact length, with a layout only.
 *    STATE: NLA_U8, enum ecproxy_row_state of its output.
 *    BYTES_OUT: NLA_U64, bytes of the row sent to its target, each
 *               once (DEST; what a client got is the task's BYTES_OUT).
 *
 * A task with 32 sources needs about 4 KiB: dump with a receive buffer of
 * at least 16 KiB.
 *
 * ECPROXY_CMD_TASK_FLUSH
 * ----------------------
 *
 * Takes no attributes and deletes every task of the namespace, each with
 * an ECPROXY_EVENT_TASK_DELETED event.  Answers with an ack only.
 *
 * ECPROXY_CMD_STATS_GET
 * ---------------------
 *
 * Takes no attributes.  Answers with one message of ECPROXY_A_NETNS_*:
 *
 *    TASKS: NLA_U32, number of tasks.
 *    MEM_USED: NLA_U64, bytes reserved by all tasks.
 *    MEM_MAX: NLA_U64, the cap on MEM_USED (module parameter
 *             netns_mem_max, shared by every namespace but applied to
 *             each separately).
 *    STATS: NLA_NESTED, ECPROXY_A_STATS_*: the sums over every task the
 *           namespace has had, deleted ones included (PEAK_BUFFER is the
 *           maximum, the per-connection attributes are absent).
 *
 *    EVENTS_DROPPED: NLA_U64, events of the namespace that could not be
 *                    allocated or delivered to a listener (see EVENTS
 *                    below); back to 0 on STATS_RESET.
 *
 * ECPROXY_CMD_TASK_SET
 * --------------------
 *
 * Changes a task.  Takes ECPROXY_A_TASK_ID (required) and at least one of:
 *
 *    CLIENT, CLIENT_PREFIX: as for TASK_ADD, replacing the client filter;
 *                           a /0 prefix (CLIENT 0.0.0.0, CLIENT_PREFIX 0)
 *                           removes it, so that any client may connect.
 *    BUFFER_SIZE: as for TASK_ADD.  The new buffer (plus its headroom) is
 *                 reserved and allocated before the old one is released;
 *                 the namespace cap applies to the new size with the
 *                 task's current reservation given back first.
 *    HANDSHAKE_TIMEOUT, IDLE_TIMEOUT, LINGER_TIMEOUT: as for TASK_ADD.
 *    RATE: as for TASK_ADD; the only setting that may change while a
 *          connection or run is under way, and takes effect at once.
 *
 * Attributes not given keep their value.  VIP, PORT, MODE, SOURCES, ROWS,
 * BLOCK and CELL cannot be changed (-EINVAL naming the attribute: delete
 * the task and add it again), nor can the read-only STATE, MEM and STATS.  -ENOENT if there is
 * no such task; -EBUSY while a client connection exists, lingering ones
 * included (the task's STATE is ECPROXY_TASK_BUSY), unless RATE is the
 * only change: nothing is changed then; -ENOSPC if the new buffer would exceed the namespace cap; -ENOMEM.
 * The change is atomic: either every given attribute is applied, or none.
 * Answers with an ack only, and sends an ECPROXY_EVENT_TASK_CHANGED event.
 *
 * ECPROXY_CMD_STATS_RESET
 * -----------------------
 *
 * With ECPROXY_A_TASK_ID, sets that task's counters (ECPROXY_A_STATS_*
 * counters and the per-source BYTES_IN, SEGS_IN, DUP_BYTES and LOST) to
 * zero;
 * -ENOENT if there is no such task.  Without, does so for every task of
 * the namespace, for the counters kept from deleted tasks and for
 * EVENTS_DROPPED, so that every STATS_GET total starts again from 0.
 * Connection state and LAST_ERROR are state, not counters: they are kept.
 * Counters the data path bumps while the reset runs may be lost or kept.
 * Answers with an ack only.
 *
 * Events (multicast group ECPROXY_MCGRP_EVENTS, "events")
 * -------------------------------------------------------
 *
 * Subscribe (NETLINK_ADD_MEMBERSHIP with the group id the family's
 * CTRL_ATTR_MCAST_GROUPS gives) to follow what happens in the socket's
 * network namespace.  Subscribing needs CAP_NET_ADMIN in the user
 * namespace owning that network namespace (GENL_MCAST_CAP_NET_ADMIN, the
 * same rule as the commands'); without it the kernel answers -EPERM.
 * Every event is one message with command ECPROXY_CMD_EVENT (which is not
 * a request: sending it gets -EOPNOTSUPP) holding ECPROXY_A_EVENT_*:
 *
 *    TYPE: NLA_U8, enum ecproxy_event, always present.
 *    TASK_ID: NLA_U32, always present.
 *    VIP, PORT: the task's service endpoint (no PORT for DEST);
 *               TASK_ADDED only, with K: NLA_U8, the number of sources.
 *    CLIENT, CLIENT_PORT: the client's address and port; connection
 *                         events only.
 *    CPU: NLA_U32, the CPU the connection's segments are handled on (its
 *         home, where Receive Flow Steering moves its flows when enabled);
 *         CONN_ESTABLISHED only.
 *    BYTES: NLA_U64, rebuilt bytes sent to the client or to all targets
 *           (re-sent bytes counted once); CONN_DONE, CONN_FAILED,
 *           TASK_COMPLETED and TASK_FAILED.
 *    DURATION: NLA_U64, milliseconds since the client's SYN or
 *              TASK_START; the same events.
 *    ERROR: NLA_U8, enum ecproxy_conn_error; CONN_FAILED and TASK_FAILED.
 *    ERROR_SOURCE: NLA_U8, the index of the source at fault, with
 *                  SOURCE_ADDR and SOURCE_PORT, its address and port;
 *                  the same events, when one source is to blame.
 *    ERROR_TARGET: NLA_U8, the index of the target (row) at fault, with
 *                  TARGET_ADDR and TARGET_PORT; TASK_FAILED, when one
 *                  target is to blame.
 *
 * A DEST task's run has no client: it yields TASK_STARTED, then
 * TASK_COMPLETED or TASK_FAILED, instead of the connection events.
 *
 * Connection events are built in softirq with GFP_ATOMIC and only when
 * someone listens; the data path never waits for a listener.  An event
 * that cannot be allocated, or that a listener's full receive buffer
 * refuses, is dropped and counted in EVENTS_DROPPED (the listener also
 * gets ENOBUFS on its socket).  A deleted task's live connection yields
 * CONN_FAILED (ERROR ECPROXY_ERR_TASK_DELETED) before TASK_DELETED.
 *
 * Statistics (ECPROXY_A_STATS_*)
 * ------------------------------
 *
 * Counters are NLA_U64 and only ever grow while the task exists, until
 * STATS_RESET sets them to zero:
 *
 *    BYTES_IN: the sources' BYTES_IN summed.
 *    BYTES_OUT: rebuilt bytes sent to the client or the targets, each once
 *               (segments sent again are counted in RESENT).
 *    SEGS_OUT: segments with payload sent to the client or the targets.
 *    SEGS_APPLIED: source segments multiplied into the decode buffer.
 *    DUPS_SKIPPED: source segments whose bytes had all been applied
 *                  already (retransmissions), dropped without effect.
 *    RESENT: segments re-sent to the client or the targets from the
 *            buffer after a loss.
 *    RECOVERIES: fast recoveries S entered towards the client or a target
 *                (three duplicate ACKs, or more than two segments SACKed
 *                above a hole): every hole it reports is re-sent within
 *                the congestion window.
 *    TIMEOUTS: retransmission timeouts towards the client or a target
 *              (everything outstanding is re-sent, going back N).
 *    WINDOW_CLAMPS: ACKs to a source or the writer whose window, the room
 *                   left in the decode buffer, was less than a segment:
 *                   EBSN holding a fast sender for the slowest.
 *    PEAK_BUFFER: highest buffer occupancy seen, bytes.
 *    OVERFLOW: segments of a source that were dropped because they did
 *              not fit: beyond the offered window and the headroom, or
 *              needing an interval beyond what the source's interval set
 *              holds (a ring of full segments with every other one lost;
 *              the source sends them again, prompted by a duplicate ACK).
 *    CONNS: client connections accepted.
 *    CONNS_DONE: connections that delivered every byte and closed.
 *    CONNS_FAILED: connections reset or timed out.
 *    PMTU_UPDATES: ICMP "fragmentation needed" messages about a segment
 *                  S had in flight that lowered the MSS of the client's or
 *                  a source's path (S sends with DF, as TCP does).
 *    TIME_WAIT_RESETS: ACKs a source sent instead of a SYN-ACK, from a
 *                      TIME-WAIT left by an earlier connection on the same
 *                      ports; S answered each with a RST and a new SYN
 *                      (counted in SYNS_RESENT too).
 *    WINDOW_PROBES: probes S sent a client whose window was zero (the
 *                   persist timer), so that a lost window update cannot
 *                   stall the connection.
 *    PROMPTS: duplicate ACKs S sent a source that had a hole at the
 *             offset the client acknowledged, so that its fast
 *             retransmit resends the hole instead of waiting for its RTO.
 *    SACKS: ACKs to a source that negotiated SACK carrying SACK blocks:
 *           what S holds beyond its hole, so that it re-sends every hole
 *           of a window in one round trip.
 *    TAIL_PROBES: tail loss probes S sent an output that negotiated SACK
 *                 (RFC 8985 §7): one segment, two round trips after a
 *                 flight went unacknowledged, so that the ACK it draws
 *                 starts a fast recovery of the flight's lost tail
 *                 instead of an RTO.
 *    REO_TIMEOUTS: re-sent copies to an output found lost by RACK's
 *                  reordering timer (RFC 8985 §6.2): bytes SACKed after
 *                  a copy proved it lost before a round trip and a
 *                  quarter had passed, and no later ACK came to find it
 *                  when they had; re-sent then instead of at the RTO.
 *    ECN_REDUCTIONS: congestion windows towards a client that negotiated
 *                    ECN (RFC 3168) cut to 7/10 for its echo of a
 *                    congestion mark (ECE), once per window, nothing
 *                    re-sent.
 *    SYNS_RESENT: SYNs S sent a source or a target again: the client
 *                 repeated its own SYN; or others had answered and this
 *                 one had not after three times their slowest round
 *                 trip (at least 200 ms, doubling per SYN); or the task has
 *                 no client and its timer went off (1 s, doubling up to
 *                 3 s); or after a TIME_WAIT_RESETS RST.
 *    PACE_WAITS: times S armed its pacing timer because an output's next
 *                segment was not due yet: S spreads a window over the
 *                round trip instead of sending it at once (twice the
 *                window per round trip in slow start, 1.2 times after;
 *                module parameter pacing).
 *    HYSTART_EXITS: slow starts towards a client or target that HyStart
 *                   ended before a loss did: a round's least round trip
 *                   grew by an eighth of the least seen (4-16 ms), the
 *                   queue of a bottleneck filling.
 *    OFF_HOME: segments of a connection's client, sources or targets
 *              that came in on a CPU other than the connection's home
 *              (the CPU that accepted it), where they take the task's
 *              lock in turns with the home CPU.  ecproxy steers each of
 *              a connection's flows home through Receive Flow Steering
 *              when the administrator enables RFS
 *              (net.core.rps_sock_flow_entries and each receive queue's
 *              rps_flow_cnt).
 *    SPARE_BYTES: bytes of the rows completed before one of the sources
 *                 had given them, with spares standing in for it
 *                 (SOURCES' SPARE): the output did not wait for that
 *                 source.
 *    SOURCES_LOST: sources that reset their connection, refused S's SYN,
 *                  answered none of its SYNs (its state then reads
 *                  SILENT) or closed before bytes another source sent
 *                  (SHORT) while the spares could stand in for them: the
 *                  connection went on without them (without spares, or
 *                  past as many lost as there are spares, such a source
 *                  fails the connection).
 *    DROPS: NLA_NESTED, one NLA_U64 per reason, the attribute type being
 *           the reason (enum ecproxy_drop_reason): packets of a task
 *           that were invalid and dropped.
 *
 * and, for a task only:
 *
 *    CONN_STATE: NLA_U8, enum ecproxy_conn_state of the client connection.
 *    LAST_ERROR: NLA_U8, enum ecproxy_conn_error: why the last failed
 *                connection failed, ECPROXY_ERR_NONE if none did.
 *    LAST_ERROR_SOURCE: NLA_U8, the source index LAST_ERROR is about,
 *                       present only when it is about one source.
 *    LAST_ERROR_TARGET: NLA_U8, likewise for a target (DEST).
 *    RATE: NLA_U64, bytes/s the task sent: over the last four seconds while a
 *          connection or run is under way, its average once it ended.
 *    RTT: NLA_U32, microseconds: the smoothed round trip S measured to
 *         its output (the slowest of its targets) in the current or last
 *         connection or run, timed on the monotonic clock (RFC 6298); 0
 *         before the first sample.
 *
 * Unknown attributes in replies must be ignored: later versions add more.
 */
#ifndef _UAPI_LINUX_ECPROXY_H
#define _UAPI_LINUX_ECPROXY_H

#define ECPROXY_GENL_NAME "ecproxy"
#define ECPROXY_GENL_VERSION 1

/* Limits and defaults, see TASK_ADD above. */
#define ECPROXY_MAX_K			32
#define ECPROXY_MAX_SPARES		4
#define ECPROXY_BUFFER_MIN		4096
#define ECPROXY_BUFFER_MAX		(64 << 20)
#define ECPROXY_BUFFER_DEFAULT		(1 << 20)
#define ECPROXY_HANDSHAKE_MS_MIN	100
#define ECPROXY_HANDSHAKE_MS_MAX	600000
#define ECPROXY_HANDSHAKE_MS_DEFAULT	3000
#define ECPROXY_IDLE_MS_MIN		1000
#define ECPROXY_IDLE_MS_MAX		86400000
#define ECPROXY_IDLE_MS_DEFAULT		60000
#define ECPROXY_LINGER_MS_MAX		60000
#define ECPROXY_LINGER_MS_DEFAULT	1000
#define ECPROXY_CELL_MAX		(64 << 20)

enum ecproxy_cmd {
	ECPROXY_CMD_UNSPEC,
	ECPROXY_CMD_GET_INFO,
	ECPROXY_CMD_TASK_ADD,
	ECPROXY_CMD_TASK_DEL,
	ECPROXY_CMD_TASK_GET,
	ECPROXY_CMD_TASK_FLUSH,
	ECPROXY_CMD_STATS_GET,
	ECPROXY_CMD_TASK_SET,
	ECPROXY_CMD_STATS_RESET,
	ECPROXY_CMD_EVENT,		/* multicast only, see Events */
	ECPROXY_CMD_TASK_START,
	__ECPROXY_CMD_MAX
};
#define ECPROXY_CMD_MAX (__ECPROXY_CMD_MAX - 1)

#define ECPROXY_MCGRP_EVENTS "events"

enum ecproxy_info_attr {
	ECPROXY_A_INFO_UNSPEC,
	ECPROXY_A_INFO_VERSION,
	ECPROXY_A_INFO_GF_IMPL,
	ECPROXY_A_INFO_GF_AVAIL,
	__ECPROXY_A_INFO_MAX
};
#define ECPROXY_A_INFO_MAX (__ECPROXY_A_INFO_MAX - 1)

enum ecproxy_task_attr {
	ECPROXY_A_TASK_UNSPEC,
	ECPROXY_A_TASK_PAD,
	ECPROXY_A_TASK_ID,
	ECPROXY_A_TASK_VIP,
	ECPROXY_A_TASK_PORT,
	ECPROXY_A_TASK_CLIENT,
	ECPROXY_A_TASK_CLIENT_PREFIX,
	ECPROXY_A_TASK_SOURCES,
	ECPROXY_A_TASK_BUFFER_SIZE,
	ECPROXY_A_TASK_HANDSHAKE_TIMEOUT,
	ECPROXY_A_TASK_IDLE_TIMEOUT,
	ECPROXY_A_TASK_LINGER_TIMEOUT,
	ECPROXY_A_TASK_STATE,
	ECPROXY_A_TASK_MEM,
	ECPROXY_A_TASK_STATS,
	ECPROXY_A_TASK_MODE,
	ECPROXY_A_TASK_ROWS,
	ECPROXY_A_TASK_BLOCK,
	ECPROXY_A_TASK_CELL,
	ECPROXY_A_TASK_RATE,
	__ECPROXY_A_TASK_MAX
};
#define ECPROXY_A_TASK_MAX (__ECPROXY_A_TASK_MAX - 1)

enum ecproxy_source_attr {
	ECPROXY_A_SOURCE_UNSPEC,
	ECPROXY_A_SOURCE_PAD,
	ECPROXY_A_SOURCE_ADDR,
	ECPROXY_A_SOURCE_PORT,
	ECPROXY_A_SOURCE_COEF,
	ECPROXY_A_SOURCE_FRAG,
	ECPROXY_A_SOURCE_STATE,
	ECPROXY_A_SOURCE_BYTES_IN,
	ECPROXY_A_SOURCE_SEGS_IN,
	ECPROXY_A_SOURCE_DUP_BYTES,
	ECPROXY_A_SOURCE_LENGTH,
	ECPROXY_A_SOURCE_SPARE,
	ECPROXY_A_SOURCE_CHECK,
	ECPROXY_A_SOURCE_LOST,
	__ECPROXY_A_SOURCE_MAX
};
#define ECPROXY_A_SOURCE_MAX (__ECPROXY_A_SOURCE_MAX - 1)

enum ecproxy_row_attr {
	ECPROXY_A_ROW_UNSPEC,
	ECPROXY_A_ROW_PAD,
	ECPROXY_A_ROW_FRAG,
	ECPROXY_A_ROW_COEFS,
	ECPROXY_A_ROW_ADDR,
	ECPROXY_A_ROW_PORT,
	ECPROXY_A_ROW_LENGTH,
	ECPROXY_A_ROW_STATE,
	ECPROXY_A_ROW_BYTES_OUT,
	__ECPROXY_A_ROW_MAX
};
#define ECPROXY_A_ROW_MAX (__ECPROXY_A_ROW_MAX - 1)

enum ecproxy_netns_attr {
	ECPROXY_A_NETNS_UNSPEC,
	ECPROXY_A_NETNS_PAD,
	ECPROXY_A_NETNS_TASKS,
	ECPROXY_A_NETNS_MEM_USED,
	ECPROXY_A_NETNS_MEM_MAX,
	ECPROXY_A_NETNS_STATS,
	ECPROXY_A_NETNS_EVENTS_DROPPED,
	__ECPROXY_A_NETNS_MAX
};
#define ECPROXY_A_NETNS_MAX (__ECPROXY_A_NETNS_MAX - 1)

enum ecproxy_stats_attr {
	ECPROXY_A_STATS_UNSPEC,
	ECPROXY_A_STATS_PAD,
	ECPROXY_A_STATS_BYTES_IN,
	ECPROXY_A_STATS_BYTES_OUT,
	ECPROXY_A_STATS_SEGS_OUT,
	ECPROXY_A_STATS_SEGS_APPLIED,
	ECPROXY_A_STATS_DUPS_SKIPPED,
	ECPROXY_A_STATS_RESENT,
	ECPROXY_A_STATS_WINDOW_CLAMPS,
	ECPROXY_A_STATS_PEAK_BUFFER,
	ECPROXY_A_STATS_OVERFLOW,
	ECPROXY_A_STATS_CONNS,
	ECPROXY_A_STATS_CONNS_DONE,
	ECPROXY_A_STATS_CONNS_FAILED,
	ECPROXY_A_STATS_DROPS,
	ECPROXY_A_STATS_CONN_STATE,
	ECPROXY_A_STATS_LAST_ERROR,
	ECPROXY_A_STATS_LAST_ERROR_SOURCE,
	ECPROXY_A_STATS_PROMPTS,
	ECPROXY_A_STATS_PMTU_UPDATES,
	ECPROXY_A_STATS_TIME_WAIT_RESETS,
	ECPROXY_A_STATS_WINDOW_PROBES,
	ECPROXY_A_STATS_RATE,
	ECPROXY_A_STATS_LAST_ERROR_TARGET,
	ECPROXY_A_STATS_RECOVERIES,
	ECPROXY_A_STATS_TIMEOUTS,
	ECPROXY_A_STATS_SACKS,
	ECPROXY_A_STATS_RTT,
	ECPROXY_A_STATS_TAIL_PROBES,
	ECPROXY_A_STATS_ECN_REDUCTIONS,
	ECPROXY_A_STATS_SYNS_RESENT,
	ECPROXY_A_STATS_PACE_WAITS,
	ECPROXY_A_STATS_HYSTART_EXITS,
	ECPROXY_A_STATS_OFF_HOME,
	ECPROXY_A_STATS_REO_TIMEOUTS,
	ECPROXY_A_STATS_SPARE_BYTES,
	ECPROXY_A_STATS_SOURCES_LOST,
	__ECPROXY_A_STATS_MAX
};
#define ECPROXY_A_STATS_MAX (__ECPROXY_A_STATS_MAX - 1)

/* Attribute types inside ECPROXY_A_STATS_DROPS. */
enum ecproxy_drop_reason {
	ECPROXY_DROP_UNSPEC,
	ECPROXY_DROP_PAD,
	ECPROXY_DROP_OUT_OF_WINDOW,	/* sequence outside the window */
	ECPROXY_DROP_BAD_FLAGS,		/* TCP flags unexpected in this state */
	ECPROXY_DROP_TRUNCATED,		/* IP or TCP header cut short */
	ECPROXY_DROP_BAD_OPTIONS,	/* malformed TCP options */
	ECPROXY_DROP_BAD_CSUM,		/* TCP checksum wrong */
	ECPROXY_DROP_CLIENT_DENIED,	/* SYN from outside CLIENT/PREFIX */
	ECPROXY_DROP_BUSY,		/* SYN while another client is served */
	ECPROXY_DROP_NO_MEMORY,		/* allocation failed in softirq */
	ECPROXY_DROP_NO_ROUTE,		/* SYN from, or for a source at, an
					 * address S has no route to
					 */
	ECPROXY_DROP_PAWS,		/* timestamp older than the last
					 * (RFC 7323 PAWS): an old duplicate
					 */
	__ECPROXY_DROP_MAX
};
#define ECPROXY_DROP_MAX (__ECPROXY_DROP_MAX - 1)

enum ecproxy_event_attr {
	ECPROXY_A_EVENT_UNSPEC,
	ECPROXY_A_EVENT_PAD,
	ECPROXY_A_EVENT_TYPE,
	ECPROXY_A_EVENT_TASK_ID,
	ECPROXY_A_EVENT_VIP,
	ECPROXY_A_EVENT_PORT,
	ECPROXY_A_EVENT_K,
	ECPROXY_A_EVENT_CLIENT,
	ECPROXY_A_EVENT_CLIENT_PORT,
	ECPROXY_A_EVENT_BYTES,
	ECPROXY_A_EVENT_DURATION,
	ECPROXY_A_EVENT_ERROR,
	ECPROXY_A_EVENT_ERROR_SOURCE,
	ECPROXY_A_EVENT_SOURCE_ADDR,
	ECPROXY_A_EVENT_SOURCE_PORT,
	ECPROXY_A_EVENT_ERROR_TARGET,
	ECPROXY_A_EVENT_TARGET_ADDR,
	ECPROXY_A_EVENT_TARGET_PORT,
	ECPROXY_A_EVENT_CPU,
	__ECPROXY_A_EVENT_MAX
};
#define ECPROXY_A_EVENT_MAX (__ECPROXY_A_EVENT_MAX - 1)

enum ecproxy_event {
	ECPROXY_EVENT_UNSPEC,
	ECPROXY_EVENT_TASK_ADDED,
	ECPROXY_EVENT_TASK_DELETED,	/* by TASK_DEL, TASK_FLUSH or netns exit */
	ECPROXY_EVENT_TASK_CHANGED,	/* by TASK_SET */
	ECPROXY_EVENT_CONN_ESTABLISHED,	/* the client ACKed the SYN-ACK */
	ECPROXY_EVENT_CONN_DONE,	/* every byte delivered, all closed */
	ECPROXY_EVENT_CONN_FAILED,	/* reset or timed out, see ERROR */
	ECPROXY_EVENT_TASK_STARTED,	/* by TASK_START */
	ECPROXY_EVENT_TASK_COMPLETED,	/* every target has every byte */
	ECPROXY_EVENT_TASK_FAILED,	/* a started task failed, see ERROR */
	__ECPROXY_EVENT_MAX
};
#define ECPROXY_EVENT_MAX (__ECPROXY_EVENT_MAX - 1)

/* How a task's rebuilt rows leave S (ECPROXY_A_TASK_MODE). */
enum ecproxy_task_mode {
	ECPROXY_MODE_PULL,		/* a client reads row 0 */
	ECPROXY_MODE_READ,		/* a client reads the block, all rows */
	ECPROXY_MODE_DEST,		/* S sends each row to its target */
	ECPROXY_MODE_WRITE,		/* a writer's block, encoded to targets */
};

enum ecproxy_task_state {
	ECPROXY_TASK_IDLE,		/* waiting for a client */
	ECPROXY_TASK_BUSY,		/* serving one */
};

enum ecproxy_conn_state {
	ECPROXY_CONN_NONE,		/* no connection */
	ECPROXY_CONN_HANDSHAKE,		/* SYNs sent to the sources */
	ECPROXY_CONN_ESTABLISHED,
	ECPROXY_CONN_CLOSING,		/* FINs under way */
	ECPROXY_CONN_LINGER,		/* closed, state kept a little */
};

enum ecproxy_source_state {
	ECPROXY_SOURCE_IDLE,		/* no connection */
	ECPROXY_SOURCE_SYN_SENT,
	ECPROXY_SOURCE_ESTABLISHED,
	ECPROXY_SOURCE_FIN_RECEIVED,	/* sent its whole fragment */
	ECPROXY_SOURCE_CLOSED,
	ECPROXY_SOURCE_RESET,		/* reset, or refused S's SYN */
	ECPROXY_SOURCE_SILENT,		/* answered no SYN; a spare stood in */
	ECPROXY_SOURCE_SHORT,		/* closed before the others' length;
					 * a spare stood in
					 */
};

enum ecproxy_conn_error {
	ECPROXY_ERR_NONE,
	ECPROXY_ERR_SOURCE_REFUSED,	/* a source answered the SYN with RST */
	ECPROXY_ERR_HANDSHAKE_TIMEOUT,	/* a source or target did not answer
					 * in time, or (no peer given) the
					 * client or writer did not complete
					 * its handshake
					 */
	ECPROXY_ERR_LENGTH_MISMATCH,	/* sources closed at different lengths */
	ECPROXY_ERR_CLIENT_RESET,
	ECPROXY_ERR_SOURCE_RESET,
	ECPROXY_ERR_IDLE_TIMEOUT,
	ECPROXY_ERR_NO_MEMORY,
	ECPROXY_ERR_TASK_DELETED,	/* reset because the task went away */
	ECPROXY_ERR_SOURCE_TIMEOUT,	/* the stream waited on a silent source */
	ECPROXY_ERR_CLIENT_TIMEOUT,	/* the client stopped acknowledging */
	ECPROXY_ERR_TARGET_REFUSED,	/* a target answered the SYN with RST */
	ECPROXY_ERR_TARGET_RESET,
	ECPROXY_ERR_TARGET_TIMEOUT,	/* a target stopped acknowledging */
};

/* A row's output (ECPROXY_A_ROW_STATE); DONE and RESET last until the next run. */
enum ecproxy_row_state {
	ECPROXY_ROW_IDLE,		/* no connection */
	ECPROXY_ROW_SYN_SENT,		/* DEST: SYN sent to the target */
	ECPROXY_ROW_SENDING,
	ECPROXY_ROW_DONE,		/* DEST: every byte and the FIN acked */
	ECPROXY_ROW_RESET,		/* DEST: the run failed, the target got a RST */
};

#endif /* _UAPI_LINUX_ECPROXY_H */

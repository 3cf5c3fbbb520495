/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small libmnl layer for the ecproxy generic netlink family: open a
 * socket with extended acks, resolve the family, send one request and run
 * its replies through a callback, printing the kernel's error message.
 */
#ifndef ECCTL_NL_H
#define ECCTL_NL_H

#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

/* Big enough for a dump part holding a task with 32 sources. */
#define ECCTL_NL_RXSIZE	(64 * 1024)
#define ECCTL_NL_TXSIZE	(16 * 1024)

/*
 * Name the request attribute at byte offset off of req (a policy error
 * points there) into buf; return 0 if it is not known.
 */
typedef int (*ecctl_nl_describe_t)(const struct nlmsghdr *req, uint32_t off,
				   char *buf, size_t len);

struct ecctl_nl {
	struct mnl_socket *sk;
	unsigned int portid;
	uint16_t family;
	uint32_t events_group;	/* multicast group id of "events", 0 if none */
	uint32_t seq;
	int dump_intr;		/* set when a dump reply had NLM_F_DUMP_INTR */
	char tx[ECCTL_NL_TXSIZE];
	char rx[ECCTL_NL_RXSIZE];
};

/*
 * Allocate, open and resolve the family into *nlp; prints the error and
 * returns an exit code.  ecctl_nl_free() closes and frees (NULL is fine).
 */
int ecctl_nl_new(struct ecctl_nl **nlp);
void ecctl_nl_free(struct ecctl_nl *nl);

/* Start a request for cmd in nl->tx; add attributes with mnl_attr_put*. */
struct nlmsghdr *ecctl_nl_req(struct ecctl_nl *nl, uint8_t cmd,
			      uint16_t flags);

/*
 * Send req and process the replies with cb (may be NULL for commands
 * answered by an ack only).  On a kernel error print "Error: MSG" and
 * return ECCTL_ERR.  describe may be NULL.
 */
int ecctl_nl_talk(struct ecctl_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		  void *data, ecctl_nl_describe_t describe);

/*
 * Join the "events" multicast group; prints the error (EPERM without
 * CAP_NET_ADMIN) and returns an exit code.
 */
int ecctl_nl_subscribe_events(struct ecctl_nl *nl);

/* Payload attributes of a genetlink message, by type (tb[max + 1]). */
int ecctl_nl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		   unsigned int max);
int ecctl_nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
			  unsigned int max);

#endif

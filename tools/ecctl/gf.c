// SPDX-License-Identifier: GPL-2.0
/*
 * ecctl gf: the module version and the GF(2^8) implementation its data path
 * uses, with the ones this CPU could run (ECPROXY_CMD_GET_INFO).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ecproxy.h>
#include "ecctl.h"
#include "nl.h"

static int info_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ECPROXY_A_INFO_MAX + 1], *a;
	json_object *o = data, *avail;

	if (ecctl_nl_parse(nlh, tb, ECPROXY_A_INFO_MAX) < 0)
		return MNL_CB_ERROR;
	if (tb[ECPROXY_A_INFO_VERSION])
		json_object_object_add(o, "version", json_object_new_string(
			mnl_attr_get_str(tb[ECPROXY_A_INFO_VERSION])));
	if (tb[ECPROXY_A_INFO_GF_IMPL])
		json_object_object_add(o, "implementation", json_object_new_string(
			mnl_attr_get_str(tb[ECPROXY_A_INFO_GF_IMPL])));
	avail = json_object_new_array();
	if (tb[ECPROXY_A_INFO_GF_AVAIL])
		mnl_attr_for_each_nested(a, tb[ECPROXY_A_INFO_GF_AVAIL])
			if (mnl_attr_get_type(a) == ECPROXY_A_INFO_GF_IMPL &&
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
				json_object_array_add(avail, json_object_new_string(
					mnl_attr_get_str(a)));
	json_object_object_add(o, "available", avail);
	return MNL_CB_OK;
}

static int gf_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: ecctl gf [ show ]\n"
	       "       ecctl gf help\n"
	       "The module version, the GF(2^8) implementation the data path uses\n"
	       "(module parameter gf_impl selects it) and those this CPU can run.\n");
	return ECCTL_OK;
}

static int gf_show(int argc, char **argv)
{
	struct ecctl_nl *nl;
	json_object *o, *v;
	int ret;

	if (argc > 1) {
		if (!strcmp(argv[1], "help"))
			return gf_help(argc, argv);
		return ecctl_error(ECCTL_USAGE, "\"%s\": gf show takes no arguments", argv[1]);
	}
	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	o = json_object_new_object();
	ret = ecctl_nl_talk(nl, ecctl_nl_req(nl, ECPROXY_CMD_GET_INFO, 0), info_cb, o, NULL);
	ecctl_nl_free(nl);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	if (ecctl_opts.json) {
		ecctl_json_print(o);
		return ECCTL_OK;
	}
	if (json_object_object_get_ex(o, "version", &v))
		printf("ecproxy %s\n", json_object_get_string(v));
	if (json_object_object_get_ex(o, "implementation", &v))
		printf("implementation %s\n", json_object_get_string(v));
	printf("available");
	if (json_object_object_get_ex(o, "available", &v))
		for (size_t i = 0; i < json_object_array_length(v); i++)
			printf(" %s", json_object_get_string(json_object_array_get_idx(v, i)));
	printf("\n");
	json_object_put(o);
	return ECCTL_OK;
}

static const struct ecctl_cmd gf_cmds[] = {
	{ "show", gf_show, "implementation in use and available" },
	{ "help", gf_help, "usage" },
	{ NULL, NULL, NULL }
};

int do_gf(int argc, char **argv)
{
	return ecctl_dispatch("gf command", gf_cmds, "show", argc - 1, argv + 1);
}

/* commands.h -- every `wip15` subcommand: int cmd_NAME(int argc, char **argv),
 * argv[0] being the subcommand name.  Exit codes: 0 ok, 1 failure, 2 usage. */
#ifndef W15_COMMANDS_H
#define W15_COMMANDS_H
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_frames(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_wtf_json(int argc, char **argv);
int cmd_replay(int argc, char **argv);
#endif

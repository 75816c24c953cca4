# SPDX-License-Identifier: GPL-2.0
# bash completion for schedrec(1): the verbs, the report and export names,
# every verb's options and the values of those that take known ones.
#
# The options come from `schedrec VERB --help` (of the schedrec being
# completed) at completion time, which lists each verb's option table, so
# they are those of that very binary;
# `make install` puts this file in share/bash-completion/completions.

_schedrec_verbs="record status report export"
_schedrec_reports="offcpu tenancy states latency heatmap timeline folded flame html"
_schedrec_exports="perfetto schedlog csv openmetrics"
_schedrec_events="switch waking wakeup wakeup_new migrate fork exec exit rename stack all"

# The options a --help text lists on lines that start, after at most 8
# spaces, with a '-': "  -C, --cpu CPU  text" gives -C and --cpu.
_schedrec_help_options()
{
	"$@" --help 2>/dev/null | awk '
	/^ *-/ {
		match($0, /^ */)
		if (RLENGTH > 8)
			next
		s = substr($0, RLENGTH + 1)
		while (match(s, /^--?[A-Za-z0-9][A-Za-z0-9-]*/)) {
			print substr(s, 1, RLENGTH)
			s = substr(s, RLENGTH + 1)
			if (!match(s, /^[^ ,]*( [A-Z][A-Z_.]*)?, /))
				break
			s = substr(s, RLENGTH + 1)
		}
	}'
}

# The CPUs of this machine, one number a word.
_schedrec_cpus()
{
	local range first last
	local online
	online=$(cat /sys/devices/system/cpu/online 2>/dev/null) || return
	for range in ${online//,/ }; do
		first=${range%-*}
		last=${range#*-}
		seq "$first" "$last"
	done
}

# Complete the last element of a comma-separated list of $1.
_schedrec_list()
{
	local choices=$1 cur=$2 done_part=
	[[ $cur == *,* ]] && done_part=${cur%,*},
	local word
	COMPREPLY=()
	for word in $choices; do
		[[ $done_part$word == "$cur"* ]] && COMPREPLY+=("$done_part$word")
	done
	[ "${#COMPREPLY[@]}" = 1 ] && compopt -o nospace 2>/dev/null
}

_schedrec()
{
	local cmd=$1 cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local verb=${COMP_WORDS[1]} name= prefix= words= i

	COMPREPLY=()
	if [ "$COMP_CWORD" = 1 ]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W \
				"$(_schedrec_help_options "$cmd")" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$_schedrec_verbs" -- "$cur")
		fi
		return
	fi

	# "--wait=MODE" arrives as "--wait" "=" "MODE" when = breaks words
	if [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		prefix=$prev=
		cur=${cur#*=}
	fi

	case $verb in
	record)
		# after --, the command to record and its arguments
		for ((i = 2; i < COMP_CWORD; i++)); do
			if [ "${COMP_WORDS[i]}" = "--" ]; then
				if declare -F _command_offset >/dev/null; then
					_command_offset $((i + 1))
				else
					mapfile -t COMPREPLY < <(compgen -c -- "$cur")
				fi
				return
			fi
		done
		case $prev in
		-o | --output)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return ;;
		-e | --events)
			_schedrec_list "$_schedrec_events" "$cur"
			return ;;
		-C | --cpu)
			mapfile -t COMPREPLY < <(compgen -W "$(_schedrec_cpus)" -- "$cur")
			return ;;
		-p | --pid | --tid)
			mapfile -t COMPREPLY < <(compgen -W \
				"$(cd /proc && echo [0-9]*)" -- "$cur")
			return ;;
		--wait)
			mapfile -t COMPREPLY < <(compgen -P "$prefix" \
				-W "poll spin adaptive" -- "$cur")
			return ;;
		-d | --duration | -m | --buf-kb | --rotate | --keep)
			return ;;
		esac
		;;
	report | export)
		# the report or export name, then the trace files
		[ "$COMP_CWORD" -gt 2 ] && [[ ${COMP_WORDS[2]} != -* ]] &&
			name=${COMP_WORDS[2]}
		if [ -z "$name" ] && [[ $cur != -* ]]; then
			if [ "$verb" = report ]; then
				mapfile -t COMPREPLY < <(compgen -W "$_schedrec_reports" -- "$cur")
			else
				mapfile -t COMPREPLY < <(compgen -W "$_schedrec_exports" -- "$cur")
			fi
			return
		fi
		case $prev in
		-o | --output | --palette | --svg)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return ;;
		--format)
			case $name in
			perfetto) words="proto json" ;;
			openmetrics) words="prometheus openmetrics" ;;
			esac
			mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
			return ;;
		esac
		if [[ $cur != -* ]]; then
			mapfile -t COMPREPLY < <(compgen -f -X '!*.srec' -- "$cur"
						 compgen -d -- "$cur")
			return
		fi
		;;
	status) ;;
	*)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		local options
		options=$(_schedrec_help_options "$cmd" "$verb" $name)
		[ -n "$options" ] || options=$(_schedrec_help_options "$cmd" "$verb")
		mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
	fi
}

complete -F _schedrec schedrec

# bash completion for the flame tools: flame, flamegraph, difffolded, stackfilter and
# the stackcollapse-* collapsers.  make install puts this file in
# bash-completion's directory under each tool's name; to try it without
# installing:  . completions/flame.bash
#
# Options are read from the tool's own --help, once per shell and
# command, so the list follows the tools as they gain options.  An option
# whose help shows an argument (--title TEXT) completes that argument:
# files for FILE and DIR, the choices for the few options that have them,
# nothing for the rest.

# _flame_help CMD: CMD's --help text, cached.
_flame_help() {
	local key=_flame_help_${1//[^A-Za-z0-9]/_}
	if [[ -z ${!key+set} ]]; then
		printf -v "$key" '%s' "$(LC_ALL=C "$1" --help 2>&1)"
	fi
	printf '%s\n' "${!key}"
}

# _flame_options CMD: the options CMD's help names, one a line.  A word
# like --fail-if in "a --fail-if threshold" names the options that start
# with it, and is dropped when they are listed.
_flame_options() {
	local help opts o
	help=$(_flame_help "$1")
	opts=$(printf '%s\n' "$help" |
		grep -oE -- '--[a-z][a-z0-9]*(-[a-z0-9]+)*([^a-z0-9-]|$)' |
		sed -E 's/[^a-z0-9]$//'
		printf '%s\n' "$help" |
		grep -oE -- '(^[[:space:]]+|\[)-[A-Za-z]([], ]|$)' |
		sed -E 's/^[[:space:][]*//; s/[^A-Za-z]$//')
	opts=$(printf '%s\n' "$opts" | sort -u)
	for o in $opts; do
		[[ $'\n'$opts$'\n' == *$'\n'$o-* ]] || printf '%s\n' "$o"
	done
}

# _flame_argument CMD OPTION: the name the help gives OPTION's argument
# (FILE, TEXT, N, ...), empty when it takes none.
_flame_argument() {
	_flame_help "$1" | grep -oE -- "(^|[ ,])$2[ =][A-Z][A-Z0-9_]*" |
		head -n 1 | sed -E 's/.*[ =]//'
}

_flame_complete() {
	local cmd=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev='' choices='' arg
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --opt=value: bash splits at '=' (COMP_WORDBREAKS).
	if [[ $cur == = ]]; then
		cur='' prev=${COMP_WORDS[COMP_CWORD - 1]}
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	COMPREPLY=()
	case $prev in
	--colors) choices="hot mem io wakeup chain java js perl red green blue aqua yellow purple orange" ;;
	--bgcolors) choices="yellow blue green grey" ;;
	# What the tool itself reads and writes, so new formats need no line here.
	--format) choices=$("$cmd" --list-formats 2>/dev/null | cut -f1) ;;
	--to) choices=$("$cmd" --to '?' 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p' | tr -d ,) ;;
	--split-by) choices="thread process" ;;
	--metric) choices="exclusive-samples inclusive-samples elapsed-exclusive elapsed-inclusive application-exclusive application-inclusive calls calls-inferno" ;;
	-*)
		arg=$(_flame_argument "$cmd" "$prev")
		case $arg in
		'') ;;
		FILE* | DIR* | OUT* | BEFORE | AFTER)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return ;;
		*) return ;;
		esac ;;
	esac
	if [[ -n $choices ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur")
	elif [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_flame_options "$cmd")" -- "$cur")
	else
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
}

complete -o filenames -F _flame_complete flame flamegraph difffolded stackfilter \
	stackcollapse-perf stackcollapse-etw stackcollapse-vsp stackcollapse-perfview stackcollapse-dtrace stackcollapse-sample stackcollapse-recursive stackcollapse-guess stackcollapse-vtune stackcollapse-ghcprof stackcollapse-xctrace stackcollapse-instruments stackcollapse-bpftrace stackcollapse-jstack stackcollapse-gdb stackcollapse-lnt \
	stackcollapse-stap stackcollapse-elfutils stackcollapse-aix stackcollapse-pmc stackcollapse-faulthandler stackcollapse-wcp stackcollapse-ljp stackcollapse-java-exceptions stackcollapse-ibmjava stackcollapse-go stackcollapse-vtune-mc stackcollapse-xdebug stackcollapse-perf-sched stackcollapse-pprof stackcollapse-chrome-tracing

# tests/html/trace.awk: the recording the browser test opens, in tracegen's
# language (tests/tools/tracegen.h): 6 s on 2 CPUs.
#
#   ticker 200   CPU 0: wakes every 50 ms, runs 3 ms
#   app 100      CPU 1: runs 2 ms every 100 ms, but from 2 s to 4 s it is
#                busy and its worker 101 preempts it every 20 ms for 5 ms:
#                seconds 2 and 3 are the busiest
#   a loss of 3 events on CPU 0 between 3.410 and 3.440 s
#
#   awk -f trace.awk > trace.txt && tracegen trace.txt trace.srec
BEGIN {
	print "cpus 2"
	print "drainer 900 900 1"
	print "thread 100 100 app"
	print "thread 101 100 worker"
	print "thread 200 200 ticker"
	print "thread 900 900 schedrec"
	for (t = 0; t < 6000; t += 50) {
		if (t > 0)
			printf "%.1fms cpu0 waking 200 irq target 0\n", t - 0.2
		printf "%dms cpu0 switch 0 R0 200\n", t
		printf "%dms cpu0 switch 200 S 0\n", t + 3
		if (t == 3400)
			print "3445ms cpu0 lost 3 3410ms 3440ms"
	}
	for (t = 0; t < 6000; t += 100) {
		if (t < 2000 || t >= 4000) {
			printf "%dms cpu1 switch 0 R0 100\n", t + 10
			printf "%dms cpu1 switch 100 S 0\n", t + 12
			continue
		}
		if (t == 2000)
			print "2000ms cpu1 switch 0 R0 100"
		for (s = t; s < t + 100; s += 20) {
			printf "%dms cpu1 switch 100 R 101\n", s + 15
			printf "%dms cpu1 switch 101 S 100\n", s + 20
		}
		if (t == 3900)
			print "4001ms cpu1 switch 100 S 0"
	}
	print "end 6s"
}

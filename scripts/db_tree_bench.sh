#!/bin/bash
# db tree, db dupes and the cost of db build --tree on both bench files,
# timed with /usr/bin/time; logs, sizes and outputs go to $OUT.
# Usage: ARBITER=path/to/arbiter scripts/db_tree_bench.sh
B=${ARBITER:-target/release/arbiter}   # copy it aside first: a build during the run would change it
C=${CORPUS:-../shared/corpus}; M=$C/bench-masters.pgn.zst; L=$C/bench-lichess.pgn.zst
T=${OUT:-/tmp/arbiter-db-tree-bench}; mkdir -p $T; : > $T/build.log; : > $T/query.log; : > $T/dupes.log
args() { case $1 in plain) ;; tree) echo --tree ;; pos) echo --positions=40 ;; pos_tree) echo --positions=40 --tree ;; tree1) echo --tree=1 ;; esac; }
for r in 1 2 3; do
  for cfg in plain tree pos pos_tree; do
    rm -rf $T/$cfg
    /usr/bin/time -f "$cfg round$r %e s %U user %M KB" $B db build -q $M $L -o $T/$cfg $(args $cfg) 2>> $T/build.log
  done
done
rm -rf $T/tree1; /usr/bin/time -f "tree1 round1 %e s %U user %M KB" $B db build -q $M $L -o $T/tree1 --tree=1 2>> $T/build.log
for d in plain tree pos pos_tree tree1; do for s in games positions tree stats; do echo "$d $s $(du -sb $T/$d/$s | cut -f1)"; done; done > $T/sizes.log
grep -o '"rows": [0-9]*' $T/tree/manifest.json >> $T/sizes.log
declare -A FEN
FEN[start]=""
FEN[e4]="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
FEN[najdorf]="rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"
FEN[poisoned]="rnb1kb1r/1p3ppp/p2ppn2/6B1/3NPP2/q1N5/P1PQ2PP/1R2KB1R w Kkq - 0 10"
FEN[absent]="8/8/8/8/8/8/8/K6k w - - 0 1"
for r in 1 2 3; do
  for f in start e4 najdorf poisoned absent; do
    if [ -z "${FEN[$f]}" ]; then a=(); else a=(--fen "${FEN[$f]}"); fi
    /usr/bin/time -f "pgn $f round$r %e s %U user %M KB" $B tree -q "${a[@]}" $M $L --csv > $T/out-pgn-$f.csv 2>> $T/query.log
    for d in tree pos_tree tree1 pos; do
      if [ $d = pos ] && [ $f = start ] && [ $r -gt 1 ]; then continue; fi
      /usr/bin/time -f "$d $f round$r %e s %U user %M KB" $B db tree $T/$d "${a[@]}" --csv > $T/out-$d-$f.csv 2>> $T/query.log
      cmp -s $T/out-pgn-$f.csv $T/out-$d-$f.csv && echo "same $d $f" >> $T/query.log || echo "DIFFERENT $d $f" >> $T/query.log
    done
  done
done
for r in 1 2 3; do
  /usr/bin/time -f "pgn dupes round$r %e s %U user %M KB" $B dupes $M $L > $T/dupes-pgn.txt 2>> $T/dupes.log
  /usr/bin/time -f "db dupes round$r %e s %U user %M KB" $B db dupes $T/plain > $T/dupes-db.txt 2>> $T/dupes.log
  cmp -s $T/dupes-pgn.txt $T/dupes-db.txt && echo "same dupes" >> $T/dupes.log || echo "DIFFERENT dupes" >> $T/dupes.log
done
echo finished >> $T/dupes.log

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/install/dkms_sign.sh ROOT KERNELRELEASE: DKMS signs schedrec.ko
# with the machine owner key (MOK) it is given, as README "Secure Boot"
# says.  The key is the test's own (openssl, in a temporary directory),
# and so are the dkms trees (--dkmstree, --sourcetree, --installtree):
# the machine's /var/lib/dkms (its mok.key and mok.pub), /usr/src,
# /lib/modules and /etc/dkms/framework.conf are neither used nor changed.
#
# dkms 3 reads mok_signing_key and mok_certificate from framework.conf
# (and framework.conf.d/*.conf) over whatever it had, and keeps what the
# environment gave it when they do not set them: so the key goes in
# through the environment, and a machine whose framework.conf sets them
# fails here, saying so (its key would be used instead).
#
# Checks: dkms add, build and install succeed, dkms says it signed with our
# key; the installed module (uncompressed if dkms compressed it) ends with
# the signature magic; modinfo's signer is our certificate's CN, its
# sig_key our certificate's serial number and its sig_hashalgo the
# kernel's CONFIG_MODULE_SIG_HASH; the PKCS#7 signature verifies against
# our certificate over the module's bytes; and no /var/lib/dkms/mok.key
# was made.
set -u
root=$1
rel=$2
cn="schedrec test MOK"
problems=0
tmp=$(mktemp -d)
machine_key=/var/lib/dkms/mok.key
had_machine_key=
[ -e "$machine_key" ] && had_machine_key=1
flags="--dkmstree $tmp/tree --sourcetree $tmp/source"
flags+=" --installtree $tmp/install --no-depmod"

cleanup() {
	# shellcheck disable=SC2086
	make -s -C "$root" dkms-uninstall DKMS_SOURCE_TREE="$tmp/source" \
		DKMS_FLAGS="$flags" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

problem() {
	echo "PROBLEM: $*"
	problems=$((problems + 1))
}

conf=$(grep -lsE '^[[:space:]]*(mok_signing_key|mok_certificate|sign_file)=' \
	/etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf)
if [ -n "$conf" ]; then
	echo "$conf sets the signing key or sign-file for every dkms run: this test cannot give dkms a key of its own"
	exit 1
fi

mkdir -p "$tmp/tree" "$tmp/source" "$tmp/install/$rel" "$tmp/key"
openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$cn/" \
	-keyout "$tmp/key/mok.key" -outform DER -out "$tmp/key/mok.der" \
	2>"$tmp/openssl.log" || { cat "$tmp/openssl.log"; exit 1; }

mok_signing_key=$tmp/key/mok.key mok_certificate=$tmp/key/mok.der \
	make -C "$root" dkms-install KVER="$rel" DKMS_SOURCE_TREE="$tmp/source" \
	DKMS_FLAGS="$flags" >"$tmp/dkms.log" 2>&1
status=$?
cat "$tmp/dkms.log"
[ "$status" = 0 ] || { echo "make dkms-install failed ($status)"; exit 1; }
grep -qF "Signing key: $tmp/key/mok.key" "$tmp/dkms.log" ||
	problem "dkms did not say it signs with $tmp/key/mok.key"

ko=$(find "$tmp/install/$rel" -name 'schedrec.ko*' -print -quit)
[ -n "$ko" ] || { echo "dkms installed no schedrec.ko under $tmp/install/$rel"; exit 1; }
echo "installed: ${ko#"$tmp"/}"
case "$ko" in
*.xz) xz -dc "$ko" ;;
*.gz) gzip -dc "$ko" ;;
*.zst) zstd -qdc "$ko" ;;
*) cat "$ko" ;;
esac >"$tmp/schedrec.ko" || { echo "cannot uncompress $ko"; exit 1; }

magic='~Module signature appended~'
[ "$(tail -c 28 "$tmp/schedrec.ko" | head -c 27)" = "$magic" ] ||
	problem "the module does not end with \"$magic\""

signer=$(modinfo -F signer "$ko")
echo "modinfo signer: $signer"
[ "$signer" = "$cn" ] || problem "signer is \"$signer\", not \"$cn\""

# modinfo: "4A:0B:..."; openssl: "serial=4A0B...": both without colons
# and leading zeros
sig_key=$(modinfo -F sig_key "$ko" | tr -d ':\n' | sed 's/^0*//')
serial=$(openssl x509 -inform DER -in "$tmp/key/mok.der" -noout -serial |
	sed 's/^serial=//; s/^0*//')
echo "modinfo sig_key: $sig_key; certificate serial: $serial"
[ -n "$serial" ] && [ "${sig_key^^}" = "${serial^^}" ] ||
	problem "sig_key $sig_key is not the certificate's serial $serial"

want_hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' \
	"/lib/modules/$rel/build/.config")
hash=$(modinfo -F sig_hashalgo "$ko")
echo "modinfo sig_hashalgo: $hash; the kernel's: ${want_hash:-none}"
[ -n "$want_hash" ] && [ "$hash" = "$want_hash" ] ||
	problem "signed with $hash, the kernel's hash is ${want_hash:-not set}"

# The signature over the module's bytes, as the kernel checks it: body,
# PKCS#7 (DER), struct module_signature (12 bytes; sig_len, big-endian,
# last), magic (28 bytes).
size=$(stat -c %s "$tmp/schedrec.ko")
sig_len=$((16#$(tail -c 32 "$tmp/schedrec.ko" | head -c 4 | od -An -tx1 |
	tr -d ' \n')))
body=$((size - 28 - 12 - sig_len))
if [ "$sig_len" -gt 0 ] && [ "$body" -gt 0 ]; then
	head -c "$body" "$tmp/schedrec.ko" >"$tmp/body"
	tail -c $((sig_len + 40)) "$tmp/schedrec.ko" | head -c "$sig_len" \
		>"$tmp/sig.p7"
	openssl x509 -inform DER -in "$tmp/key/mok.der" -out "$tmp/key/mok.pem"
	if openssl smime -verify -binary -inform DER -in "$tmp/sig.p7" \
		-content "$tmp/body" -certfile "$tmp/key/mok.pem" -nointern \
		-noverify -out /dev/null 2>"$tmp/verify.log"; then
		echo "the PKCS#7 signature verifies against the test's certificate"
	else
		cat "$tmp/verify.log"
		problem "the signature does not verify against the test's certificate"
	fi
else
	problem "no signature of a sensible length ($sig_len bytes in $size)"
fi

if [ -z "$had_machine_key" ] && [ -e "$machine_key" ]; then
	rm -f "$machine_key" /var/lib/dkms/mok.pub
	problem "dkms made itself $machine_key instead of using the test's key"
fi
echo "$problems problem(s)"
[ "$problems" = 0 ]

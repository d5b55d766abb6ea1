# embed.cmake - turn a file into a C array: cmake -DIN=f -DOUT=f.c -DNAME=sym -P embed.cmake
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" len)
math(EXPR n "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUT} "/* generated from ${IN} by embed.cmake */\n#include <stddef.h>\nconst unsigned char ${NAME}[] = {\n${body}\n};\nconst size_t ${NAME}_size = ${n};\n")

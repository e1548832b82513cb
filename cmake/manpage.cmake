# cmake -DBIN=scx_burst -DIN=scx_burst.8.in -DOUT=scx_burst.8 -DVERSION=...
#       -DCONFIG_FILE=... -DCONFIG_DIR=... -DEXEC=... -DDOC_DIR=... -P manpage.cmake
# Fills the page's @OPTIONS@, @TRACE_OPTIONS@, @CTL_KEYS@ and @STATS@ from the binary
# (`scx_burst --help-man SECTION`, no config file read) and the paths of
# this build.
foreach(section options trace-options ctl-keys stats)
  execute_process(COMMAND ${BIN} --config /dev/null --help-man ${section}
    OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR text STREQUAL "")
    message(FATAL_ERROR "${BIN} --help-man ${section} failed (${rc}): ${err}")
  endif()
  string(TOUPPER ${section} var)
  string(REPLACE "-" "_" var ${var})
  string(STRIP "${text}" ${var})
endforeach()
configure_file(${IN} ${OUT} @ONLY)

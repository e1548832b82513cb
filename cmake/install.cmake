# Installing scx_burst: the binary, scx_burst.service, the default
# configuration file, scx_burst(8) and the docs, in the places
# GNUInstallDirs gives for CMAKE_INSTALL_PREFIX; and the Debian package
# (cpack -G DEB) of the same tree.  Included from the top CMakeLists.txt
# after the scx_burst target exists.
#
# For an install or a package, configure with -DSCX_BURST_STATIC=OFF: the
# binary then links libbpf, libelf, zlib and libzstd dynamically, and the
# package depends on the Debian packages that provide them (found by
# dpkg-shlibdeps).  The static default suits the test VM, which has no
# shared libraries.
include(GNUInstallDirs)

# For prefix /usr the sysconfdir is /etc (GNUInstallDirs' special case).
set(SCX_BURST_CONFIG_DIR ${CMAKE_INSTALL_FULL_SYSCONFDIR}/scx_burst)
set(SCX_BURST_CONFIG_FILE ${SCX_BURST_CONFIG_DIR}/scx_burst.toml)
set(SCX_BURST_SYSTEMD_UNITDIR lib/systemd/system CACHE STRING
  "Where scx_burst.service goes, relative to the prefix or absolute")
set(SCX_BURST_EXEC ${CMAKE_INSTALL_FULL_SBINDIR}/scx_burst)
# PUBLIC: Options' default is compiled into every user of options.hpp.
target_compile_definitions(scx_burst_core PUBLIC
  SCX_BURST_CONFIG_FILE="${SCX_BURST_CONFIG_FILE}")

configure_file(${CMAKE_SOURCE_DIR}/dist/scx_burst.service.in
  ${CMAKE_BINARY_DIR}/scx_burst.service @ONLY)

# scx_burst(8): docs/scx_burst.8.in with the sections the binary prints
# from its own option, tunable and stats tables (cmake/manpage.cmake).
set(SCX_BURST_MAN ${CMAKE_BINARY_DIR}/scx_burst.8)
add_custom_command(
  OUTPUT ${SCX_BURST_MAN} ${SCX_BURST_MAN}.gz
  COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:scx_burst>
          -DIN=${CMAKE_SOURCE_DIR}/docs/scx_burst.8.in -DOUT=${SCX_BURST_MAN}
          -DVERSION=${PROJECT_VERSION} -DCONFIG_FILE=${SCX_BURST_CONFIG_FILE}
          -DCONFIG_DIR=${SCX_BURST_CONFIG_DIR} -DEXEC=${SCX_BURST_EXEC}
          -DDOC_DIR=${CMAKE_INSTALL_FULL_DOCDIR}
          -P ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
  COMMAND gzip -9nfk ${SCX_BURST_MAN}
  DEPENDS scx_burst ${CMAKE_SOURCE_DIR}/docs/scx_burst.8.in
          ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
  COMMENT "man page scx_burst.8"
  VERBATIM)
add_custom_target(scx_burst_man ALL DEPENDS ${SCX_BURST_MAN})

install(TARGETS scx_burst RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
install(FILES ${CMAKE_BINARY_DIR}/scx_burst.service
  DESTINATION ${SCX_BURST_SYSTEMD_UNITDIR})
install(FILES ${CMAKE_SOURCE_DIR}/dist/scx_burst.toml DESTINATION ${SCX_BURST_CONFIG_DIR})
install(FILES ${SCX_BURST_MAN}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
file(GLOB scx_burst_docs ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${scx_burst_docs}
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/benchmarks
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package: `cpack -G DEB` in a tree configured with
# -DCMAKE_INSTALL_PREFIX=/usr -DSCX_BURST_STATIC=OFF.
set(CPACK_PACKAGE_NAME scx-burst)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "sched_ext CPU scheduler ordering tasks by burst time (BORE) or BFS deadlines")
set(CPACK_PACKAGE_DESCRIPTION "scx_burst loads a sched_ext BPF scheduler and \
changes its policy, tunables and primary domain while it runs; it comes with \
a systemd unit (scx_burst.service, not enabled on install) and a \
configuration file.  Needs a kernel with CONFIG_SCHED_CLASS_EXT (6.12 or later).")
set(CPACK_PACKAGE_CONTACT "scx_burst developers <root@localhost>" CACHE STRING
  "Maintainer field of the Debian package")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_LICENSE GPL-2.0)
# libbpf1, libelf1, zlib1g, libzstd1, libstdc++6, libc6 with their versions.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps derives libbpf1 (>= 1:0.8.0) from the symbol versions the
# binary links, but the loader is only built and tested against the
# build's minimum and later (CMakeLists.txt): state the minimum as well.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libbpf1 (>= 1:${SCX_BURST_LIBBPF_MIN})")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
configure_file(${CMAKE_SOURCE_DIR}/dist/debian/conffiles.in
  ${CMAKE_BINARY_DIR}/debian/conffiles @ONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${CMAKE_BINARY_DIR}/debian/conffiles
  ${CMAKE_SOURCE_DIR}/dist/debian/postinst
  ${CMAKE_SOURCE_DIR}/dist/debian/prerm
  ${CMAKE_SOURCE_DIR}/dist/debian/postrm)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_GENERATOR DEB)
include(CPack)
